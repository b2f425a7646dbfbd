-- Used by bench/src/harness/wrk.load.ts: prints wrk's summary of a run as one JSON line
-- (times in microseconds), after wrk's own report. No request or response hook is defined,
-- so wrk reads every answer in C and hands nothing to Lua while it runs. The bearer token
-- comes from the environment, never the command line (which any process can read).
local authorization = os.getenv('WRK_AUTHORIZATION')
if authorization and authorization ~= '' then wrk.headers['Authorization'] = authorization end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_SUMMARY {"requests":%d,"durationUs":%d,"bytes":%d,"connectErrors":%d,"readErrors":%d,' ..
      '"writeErrors":%d,"statusErrors":%d,"timeouts":%d,"p50Us":%d,"p99Us":%d,"maxUs":%d}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status,
    e.timeout, latency:percentile(50), latency:percentile(99), latency.max))
end
