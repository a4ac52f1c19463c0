"""``python -m course_utils.data``: see course_utils/data/cli.py."""

import sys

from course_utils.data.cli import main

sys.exit(main())
