/**
 * The functions' log level for the whole bench, set before any other module
 * of it loads: run.ts imports this first. The logger (lib/http/logger.ts)
 * reads POWERTOOLS_LOG_LEVEL once, when it loads, and the bench's own static
 * imports load it (bundles.ts and list-call.ts import the route table, which
 * reaches the outbound client and so the logger), so setting the variable in
 * run.ts's body would come too late. Lambda's default would be INFO: one line
 * per request, written to this process's stdout inside the timed calls.
 */
process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
