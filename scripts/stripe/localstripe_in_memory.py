"""localstripe on 127.0.0.1:<port>, its state in memory only (scripts/stripe/localstripe.ts).

Its own entry point binds every IPv6 address and writes the whole store to the fixed file
/tmp/localstripe.pickle after every change: every instance on the machine would write the same
file (one per test file, others' runs, another user's leftover file it may not overwrite), and
each write pickles everything stored so far. Serving its app without that write keeps instances
apart and the run linear.
"""
import sys

from aiohttp import web
from localstripe.resources import Store
from localstripe.server import app

Store.dump_to_disk = lambda self: None

web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), print=None, access_log=None)
