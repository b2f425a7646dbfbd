import { readFileSync, readdirSync } from 'node:fs';
import { summarizeProfile, describeProfile } from './src/report/cpu-profile.summary';
const dir = process.argv[2]!;
for (const f of readdirSync(dir)) { const p = JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')); console.log(f, describeProfile(f, summarizeProfile(p, 15), 15)); }
