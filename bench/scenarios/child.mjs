#!/usr/bin/env node
// Runs one scenario in its own process (fresh heap and JIT, no state left over from the previous
// scenario) and sends the result to bench/run.mjs over IPC (or prints it when run by hand):
//   node --expose-gc bench/scenarios/child.mjs <scenario> '{"runs":3}'
import { findScenario, runScenario } from './index.mjs';

const [name, json = '{}'] = process.argv.slice(2);
const scenario = findScenario(name);
if (!scenario) {
  process.stderr.write(`unknown scenario ${name}\n`);
  process.exit(2);
}
const result = await runScenario(scenario, { runs: 3, ...JSON.parse(json) });
if (process.send) {
  process.send(result, () => process.exit(0));
} else {
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  process.exit(0);
}
