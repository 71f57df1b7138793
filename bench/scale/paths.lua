-- wrk script: cycle through real molecules, one request per line of $PATHS (so consecutive
-- requests of a wrk thread ask for different molecules). Each wrk thread starts at its own offset.
-- A line is a path (GET) or "POST <path> <json body>".
-- The first non-2xx answer of each thread is written to $ERRFILE.<thread> (status and body).
-- done() prints one machine-readable RESULT line.
local counter = 0
function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
end

local paths = {}
local i = 0
local errfile = nil
local caught = false
function init(args)
  for line in io.lines(os.getenv("PATHS")) do
    if #line > 0 then
      local p, b = string.match(line, "^POST (%S+) (.*)$")
      if p then
        paths[#paths + 1] = wrk.format("POST", p, { ["Content-Type"] = "application/json" }, b)
      else
        paths[#paths + 1] = wrk.format("GET", line)
      end
    end
  end
  i = ((tid or 0) * 499) % #paths
  local e = os.getenv("ERRFILE")
  if e and #e > 0 then errfile = e .. "." .. tostring(tid or 0) end
end

function request()
  i = i % #paths + 1
  return paths[i]
end

function response(status, headers, body)
  if (status < 200 or status > 299) and not caught and errfile then
    caught = true
    local f = io.open(errfile, "w")
    if f then
      f:write(string.format("status=%d body=%s\n", status, string.sub(body or "", 1, 2000)))
      f:close()
    end
  end
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "RESULT rps=%.1f requests=%d p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f max_ms=%.2f mean_ms=%.2f non2xx=%d connect_err=%d read_err=%d write_err=%d timeouts=%d\n",
    summary.requests / (summary.duration / 1e6), summary.requests,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, latency.mean / 1000, e.status, e.connect, e.read, e.write, e.timeout))
end
