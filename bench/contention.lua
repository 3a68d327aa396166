-- wrk script for bench/contention: random creates and deletes over a few shared ids, counting each status.
--   wrk -t T -c C -d D -s contention.lua URL -- TOKEN IDS
-- Prints one line "CONTENTION {json}" with the count of every status seen.

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  headers = { ["Authorization"] = "Bearer " .. args[1], ["Content-Type"] = "application/json" }
  ids = tonumber(args[2])
  statuses = {}
end

function request()
  local id = math.random(0, ids - 1)
  if math.random() < 0.5 then
    return wrk.format("POST", "/plants", headers, '{"id":' .. id .. ',"name":"plant ' .. math.random(0, 2) .. '"}')
  end
  return wrk.format("DELETE", "/plants/" .. id, headers)
end

function response(status)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary)
  local totals = {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do
      totals[status] = (totals[status] or 0) + count
    end
  end
  local fields = {}
  for _, status in ipairs({ 200, 204, 404, 409, 500, 502, 503, 504 }) do
    fields[#fields + 1] = string.format('"%d":%d', status, totals[status] or 0)
  end
  io.write(string.format('CONTENTION {"socketErrors":%d,%s}\n',
      summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
      table.concat(fields, ",")))
end
