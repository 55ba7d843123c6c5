#!/bin/sh
# greet.sh: prints a greeting.
echo "Hello, world!"
