import sys

from xiangqi.cli import main

sys.exit(main())
