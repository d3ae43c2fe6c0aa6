-- The bench's wrk script. bench/wrk.ts writes a small script that sets the global `bench` and then
-- loads this file:
--   bench = { method, headers = {...}, body, pathsFile, unique = { head, tail, prefix }, bodies, first, refuse, amount }
-- A fixed request is built once by wrk itself; `pathsFile` (one path a line, each thread walks them in
-- its own shuffled order) or `unique` (body = head .. a clientId never sent before .. tail) make a
-- request per call. `pathsFile` with `bodies` is a cycle: request i, counted from `first` across runs
-- (bench/wrk.ts keeps the count), goes to path i mod (number of paths), in the file's order, with the
-- body of its pass over the paths, so each record takes bodies[1], bodies[2], ... in turn (a stage
-- move every time).
-- A cycle needs one thread (wrk -t1, as the bench runs it): two would each start at `first`. Every answer that is not 2xx, or whose body holds the text `refuse`, is counted
-- (and the first one kept); `amount` stops after that many answers; `done` prints one line of JSON.

local threads = {}

function setup(thread)
  thread:set("threadId", #threads + 1)
  table.insert(threads, thread)
end

wrk.method = bench.method
wrk.body = bench.body
for name, value in pairs(bench.headers) do wrk.headers[name] = value end

local ffi = require("ffi")
local nextPath, sent = 0, 0
-- The paths: one Lua string holding the whole file, and each path's start and length in C arrays
-- (LuaJIT's FFI), so the collector never walks them. As a million Lua strings in a table, they made
-- every collection a stall: LuaJIT marks a table's array part in one step, and answers waiting then
-- were timed late. With the collector stopped instead, the heap grew by every answer's body and the
-- stalls moved elsewhere. Measured against a node:http server answering 1 KB after 40 µs of work, 3
-- alternating runs of 4 s each (2026-11-25): p99 with 1,000,000 paths 133-232 ms as Lua strings
-- (6.5-6.6 ms with 10,000), 6.3-9.1 ms here (6.3-7.6 with 10,000), and requests/s the same for both.
local text, starts, lengths, count = nil, nil, nil, 0
local function path(i) return string.sub(text, starts[i], starts[i] + lengths[i] - 1) end
-- A global, so that done() reads it: the requests a cycle made (in-flight ones at the end included).
cycled = 0

function init(args)
  non2xx, refused, answers, firstBad = 0, 0, 0, ""
  math.randomseed(os.time() * 1000 + threadId)
  if bench.pathsFile then
    local file = assert(io.open(bench.pathsFile, "rb"))
    text = file:read("*a")
    file:close()
    local n = select(2, string.gsub(text, "\n", "\n"))
    starts, lengths = ffi.new("int32_t[?]", n + 1), ffi.new("int32_t[?]", n + 1)
    local at = 1
    while true do
      local stop = string.find(text, "\n", at, true)
      if not stop then break end
      count = count + 1
      starts[count], lengths[count] = at, stop - at
      at = stop + 1
    end
    for i = count, 2, -1 do
      if bench.bodies then break end
      local j = math.random(i)
      starts[i], starts[j] = starts[j], starts[i]
      lengths[i], lengths[j] = lengths[j], lengths[i]
    end
  end
end

if bench.pathsFile and bench.bodies then
  local bodies, verified = bench.bodies, false
  function request()
    -- wrk calls the first thread's request() once before it connects, to check the script
    -- (script_verify_request): that request is never sent, so it takes no place in the cycle.
    if threadId == 1 and not verified then
      verified = true
      return wrk.format(nil, path(1), nil, bodies[1])
    end
    local i = bench.first + cycled
    cycled = cycled + 1
    return wrk.format(nil, path(i % count + 1), nil, bodies[math.floor(i / count) % #bodies + 1])
  end
elseif bench.pathsFile then
  function request()
    nextPath = nextPath % count + 1
    return wrk.format(nil, path(nextPath))
  end
elseif bench.unique then
  local head, tail = bench.unique.head, bench.unique.tail
  function request()
    sent = sent + 1
    return wrk.format(nil, nil, nil, head .. bench.unique.prefix .. "-" .. threadId .. "-" .. sent .. tail)
  end
end

function response(status, headers, body)
  answers = answers + 1
  if status < 200 or status > 299 then
    non2xx = non2xx + 1
    if firstBad == "" then firstBad = status .. " " .. string.sub(body or "", 1, 300) end
  elseif bench.refuse and string.find(body, bench.refuse, 1, true) then
    refused = refused + 1
    if firstBad == "" then firstBad = status .. " " .. string.sub(body, 1, 300) end
  end
  if bench.amount and answers == bench.amount then
    -- wrk sleeps out its whole duration otherwise: SIGINT ends the run (the shell's parent is wrk; in
    -- the background, since system() ignores SIGINT in its caller until the command ends).
    wrk.thread:stop()
    os.execute("(sleep 0.1; kill -INT $PPID) &")
  end
end

local function clean(text)
  return (string.gsub(text, '[%c"\\]', " "))
end

function done(summary, latency, requests)
  local bad, wrong, sample, made = 0, 0, "", 0
  for _, thread in ipairs(threads) do
    made = made + thread:get("cycled")
    bad = bad + thread:get("non2xx")
    wrong = wrong + thread:get("refused")
    if sample == "" then sample = thread:get("firstBad") end
  end
  local e = summary.errors
  io.write(string.format(
    '\nBENCH_RESULT {"requests":%d,"durationUs":%d,"bytes":%d,"socketErrors":{"connect":%d,"read":%d,"write":%d,"timeout":%d},"non2xx":%d,"wrong":%d,"sample":"%s","p50Us":%d,"p99Us":%d,"maxUs":%d,"cycled":%d}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.timeout, bad, wrong, clean(sample),
    latency:percentile(50), latency:percentile(99), latency.max, made))
end
