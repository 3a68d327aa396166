-- wrk script for bench/run: wrk -t T -c C -d D -s plants.lua URL -- MODE FIRST_ID THREADS TOKEN PATH [COUNTS]
--   MODE create: POST /plants with ids FIRST_ID, FIRST_ID+1, ... spread over the threads, 10-character names and
--                one of five tags; with COUNTS (comma-separated, one per thread) each thread stops after its count
--   MODE delete: DELETE /plants/{id} over the same ids, so it removes what the create run with that FIRST_ID made;
--                COUNTS (that run's "sent") stops each thread once its ids are all deleted, so that no delete
--                misses
--   MODE get:    GET PATH
-- Prints one line "BENCH {json}" with the figures bench/run reads.

local threads = {}

function setup(thread)
  thread:set("thread_index", #threads)
  table.insert(threads, thread)
end

local tags = { "aroid", "cactus", "fern", "palm", "succulent" }

function init(args)
  mode = args[1]
  next_id = tonumber(args[2]) + thread_index
  sent = 0
  stride = tonumber(args[3])
  headers = { ["Authorization"] = "Bearer " .. args[4], ["Content-Type"] = "application/json" }
  if mode == "get" then
    get_request = wrk.format("GET", args[5])
  end
  limit = math.huge
  if args[6] then
    local i = 0
    for count in string.gmatch(args[6], "%d+") do
      if i == thread_index then
        limit = tonumber(count)
      end
      i = i + 1
    end
  end
end

function request()
  if mode == "get" then
    return get_request
  end
  local id = string.format("%.0f", next_id)
  next_id = next_id + stride
  sent = sent + 1
  if sent >= limit then
    wrk.thread:stop()
  end
  if mode == "create" then
    local body = '{"id":' .. id .. ',"name":"' .. string.format("Plant-%04d", sent % 10000) ..
        '","tag":"' .. tags[sent % 5 + 1] .. '"}'
    return wrk.format("POST", "/plants", headers, body)
  end
  return wrk.format("DELETE", "/plants/" .. id, headers)
end

function done(summary, latency, requests)
  local e = summary.errors
  local sent = {}
  for i, thread in ipairs(threads) do
    sent[i] = string.format("%d", thread:get("sent"))
  end
  io.write(string.format(
      'BENCH {"requests":%d,"durationMicros":%d,"p50Micros":%d,"p99Micros":%d,"maxMicros":%d,' ..
      '"non2xx":%d,"connectErrors":%d,"readErrors":%d,"writeErrors":%d,"timeouts":%d,"sent":"%s"}\n',
      summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.max,
      e.status, e.connect, e.read, e.write, e.timeout, table.concat(sent, ",")))
end
