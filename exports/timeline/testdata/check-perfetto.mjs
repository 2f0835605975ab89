// Parses a Presage Perfetto/Chrome timeline (presage export timeline
// --format perfetto) with Chrome DevTools' own trace engine (npm
// @paulirish/trace_engine) and checks that it understood every processor
// thread and every span ("X" event). DevTools binds flow events only to
// events of the same timestamp, Perfetto to the enclosing slice, so the
// flows are checked by exports/timeline's Go test instead.
// Usage: npm install @paulirish/trace_engine@0.0.65 && node check-perfetto.mjs FILE.json
import fs from 'node:fs';
import * as Trace from '@paulirish/trace_engine/models/trace/trace.js';
globalThis.DOMRect ??= class { constructor(x=0,y=0,w=0,h=0){ Object.assign(this,{x,y,width:w,height:h}); } };
const file = process.argv[2];
const json = JSON.parse(fs.readFileSync(file, 'utf8'));
const events = json.traceEvents;
const model = Trace.TraceModel.Model.createWithAllHandlers();
await model.parse(events);
const pt = model.parsedTrace().data;
const want = {x: 0, flows: 0, threads: new Set()};
for (const e of events) {
  if (e.ph === 'X') want.x++;
  if (e.ph === 's') want.flows++;
  if (e.ph === 'M' && e.name === 'thread_name') want.threads.add(e.tid);
}
let entries = 0, threads = 0;
for (const [, proc] of pt.Renderer.processes) {
  for (const [, th] of proc.threads) { threads++; entries += th.entries.length; }
}
console.log(JSON.stringify({file, events: events.length, completeEvents: want.x, parsedEntries: entries, threads, wantThreads: want.threads.size, flowStarts: want.flows}));
if (entries !== want.x || threads !== want.threads.size) {
  console.error(`${file}: DevTools parsed ${entries} spans on ${threads} threads, the file has ${want.x} on ${want.threads.size}`);
  process.exit(1);
}
