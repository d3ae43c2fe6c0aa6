-- The bench's wrk script. bench/wrk.ts writes a small script that sets the global `bench` and then
-- loads this file:
--   bench = { method, headers = {...}, body, pathsFile, unique = { head, tail, prefix }, bodies, first, refuse, amount }
-- A fixed request is built once by wrk itself; `pathsFile` (one path a line, each thread walks them in
-- its own shuffled order) or `unique` (body = head .. a clientId never sent before .. tail) make a
-- request per call. `pathsFile` with `bodies` is a cycle: request i, counted from `first` across runs
-- (bench/wrk.ts keeps the count), goes to path i mod #paths, in the file's order, with the body of its
-- pass over the paths, so each record takes bodies[1], bodies[2], ... in turn (a stage move every time).
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

local paths, nextPath, sent = nil, 0, 0
-- A global, so that done() reads it: the requests a cycle made (in-flight ones at the end included).
cycled = 0

function init(args)
  non2xx, refused, answers, firstBad = 0, 0, 0, ""
  math.randomseed(os.time() * 1000 + threadId)
  if bench.pathsFile then
    paths = {}
    for line in io.lines(bench.pathsFile) do paths[#paths + 1] = line end
    for i = #paths, 2, -1 do
      if bench.bodies then break end
      local j = math.random(i)
      paths[i], paths[j] = paths[j], paths[i]
    end
    -- LuaJIT's collector marks a table's whole array part in one step: with 1,000,000 paths every
    -- cycle (each answer's body is garbage) stalled the thread, and every answer waiting then was
    -- timed late. Measured against the raw node:http baseline: p99 3 ms with 10,000 paths, 15-23 ms
    -- with 1,000,000. A run is seconds long, so its garbage (a path and a body per request) is kept.
    collectgarbage("collect")
    collectgarbage("stop")
  end
end

if bench.pathsFile and bench.bodies then
  local bodies, verified = bench.bodies, false
  function request()
    -- wrk calls the first thread's request() once before it connects, to check the script
    -- (script_verify_request): that request is never sent, so it takes no place in the cycle.
    if threadId == 1 and not verified then
      verified = true
      return wrk.format(nil, paths[1], nil, bodies[1])
    end
    local i = bench.first + cycled
    cycled = cycled + 1
    return wrk.format(nil, paths[i % #paths + 1], nil, bodies[math.floor(i / #paths) % #bodies + 1])
  end
elseif bench.pathsFile then
  function request()
    nextPath = nextPath % #paths + 1
    return wrk.format(nil, paths[nextPath])
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
