// Password hashing benchmark: the time of one argon2id hash and one check at the
// production cost (lib/auth/password.ts), beside its 100 ms target; and the throughput of
// a burst of checks through the per-process hash slots. Prints figures; asserts nothing.
//   Run: npm run bench:password   (BENCH_HASHES, default 20)
import { PASSWORD_HASH_COST, hashPassword, verifyPassword } from '../lib/auth/password'
import { first } from '../tests/helpers/present'
import { fmt, load, percentile, timed } from './support'

const TARGET_MS = 100
const HASHES = Number(process.env.BENCH_HASHES ?? 20)
const cost = PASSWORD_HASH_COST

await hashPassword('warm-up', cost)
const hashes: number[] = []
const checks: number[] = []
for (let i = 0; i < HASHES; i++) {
  const made = await timed(() => hashPassword(`password-${i}`, cost))
  hashes.push(made.ms)
  checks.push((await timed(() => verifyPassword(made.value, `password-${i}`))).ms)
}
hashes.sort((a, b) => a - b)
checks.sort((a, b) => a - b)
const stored = await hashPassword('burst-password', cost)
const burst = await load(HASHES * 2, 16, () => verifyPassword(stored, 'a-wrong-password'))

console.log(`\nPassword hashing: argon2id m=${cost.memoryCost} KiB, t=${cost.timeCost}, p=${cost.parallelism}`)
console.table([
  {
    measurement: 'one hash (p50)',
    time: fmt(percentile(hashes, 50)),
    target: `${TARGET_MS} ms`,
    'time / target': `${(percentile(hashes, 50) / TARGET_MS).toFixed(2)}×`,
  },
  { measurement: 'one hash (min / p90)', time: `${fmt(first(hashes))} / ${fmt(percentile(hashes, 90))}`, target: '', 'time / target': '' },
  {
    measurement: 'one check (p50)',
    time: fmt(percentile(checks, 50)),
    target: `${TARGET_MS} ms`,
    'time / target': `${(percentile(checks, 50) / TARGET_MS).toFixed(2)}×`,
  },
  {
    measurement: `burst of ${HASHES * 2} checks, 16 at once: checks per second`,
    time: ((HASHES * 2) / (burst.wallMs / 1000)).toFixed(1),
    target: '',
    'time / target': '',
  },
])
