#!/usr/bin/env node
// Summarises a V8 .cpuprofile (from `node --cpu-prof`, or `npm run bench -- <scenario> --profile`):
// self time per function and inclusive time per function, top N of each.
//
//   node bench/profile-summary.mjs bench/.cache/profiles/<file>.cpuprofile [--top 25] [--filter text]
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a));
const flag = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
if (!file) {
  console.error('usage: node bench/profile-summary.mjs <file.cpuprofile> [--top N] [--filter text]');
  process.exit(2);
}
const top = Number(flag('top', 25));
const filter = flag('filter', null);

const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

// sample time per node
const self = new Map();
const deltas = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);

const label = (n) => {
  const cf = n.callFrame;
  const url = cf.url ? relative(process.cwd(), cf.url.replace(/^file:\/\//, '')) : '';
  const short = url.replace(/^.*node_modules\//, 'nm:/');
  return `${cf.functionName || '(anonymous)'} ${short ? `${short}:${cf.lineNumber + 1}` : ''}`.trim();
};

const selfBy = new Map();
const inclBy = new Map();
for (const [id, t] of self) {
  const key = label(byId.get(id));
  selfBy.set(key, (selfBy.get(key) ?? 0) + t);
  // inclusive: count each distinct label once per sample stack
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = label(byId.get(cur));
    if (seen.has(k)) continue;
    seen.add(k);
    inclBy.set(k, (inclBy.get(k) ?? 0) + t);
  }
}

const print = (title, map) => {
  console.log(`\n${title} (of ${(total / 1000).toFixed(0)} ms sampled)`);
  const rows = [...map].filter(([k]) => !filter || k.includes(filter)).sort((a, b) => b[1] - a[1]).slice(0, top);
  for (const [k, t] of rows) console.log(`${((100 * t) / total).toFixed(1).padStart(5)}%  ${(t / 1000).toFixed(0).padStart(7)} ms  ${k}`);
};
// self time per package: node_modules/<pkg>, apps/*, libs/*, node internals, native / GC
const packageOf = (n) => {
  const url = n.callFrame.url ?? '';
  const nm = [...url.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)/g)].pop();
  if (nm) return nm[1];
  const own = /\/((?:apps|libs)\/[^/]+)\//.exec(url);
  if (own) return own[1];
  if (url.startsWith('node:')) return 'node internals';
  if (url) return url.replace(/^file:\/\//, '');
  return n.callFrame.functionName.startsWith('(') ? n.callFrame.functionName : `native: ${n.callFrame.functionName || '?'}`;
};
const byPackage = new Map();
for (const [id, t] of self) {
  const key = packageOf(byId.get(id));
  byPackage.set(key, (byPackage.get(key) ?? 0) + t);
}
print('self time by package', byPackage);
print('self time', selfBy);
print('inclusive time', inclBy);
