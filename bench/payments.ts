// Payment notification benchmark (docs/PRODUCT.md §14): 100 distinct WeChat Pay notifications
// arriving at once, handled by the notify route in-process (verify the signature, decrypt,
// check, fulfil with its ledger rows, charge record and notification record). Beside it, the
// floor: the same signature check and decryption with node:crypto and one conditional
// UPDATE ... WHERE status = 'PENDING' per notification, straight on pg. Prints figures;
// asserts nothing.   Run: npm run bench:payments   (BENCH_ROUNDS=5 for more rounds)
import pg from 'pg'
import { benchDatabase, fmt, load, percentile, printTable, ratio, type Row } from './support'

const NOTIFICATIONS = 100
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)

const database = await benchDatabase('payments')
const { createUser } = await import('../tests/helpers/call-route')
const { configureMerchants, createProductRow, placeOrder, startPaymentWorld } = await import('../tests/helpers/payments')
const notifyRoute = await import('../app/api/pay/wechat/notify/route')
const { decryptResource, verifyWechatSignature } = await import('../lib/payments/wechat/notification-crypto')
const { createPublicKey } = await import('node:crypto')
const { disconnectDb } = await import('../lib/db')
const world = await startPaymentWorld()
const pool = new pg.Pool({ connectionString: database.url, max: 20 })

type Note = { headers: Record<string, string>; body: string }

try {
  const admin = await createUser({ role: 'ADMIN' })
  await configureMerchants(admin.token, world)
  const pack = await createProductRow({ type: 'POINTS', price: 100, points: 100 })
  const platformKey = createPublicKey(world.wechat.keys.publicKeyPem)
  await pool.query(`CREATE TABLE "OrderFloor" (LIKE "Order" INCLUDING DEFAULTS)`)
  await pool.query(`CREATE UNIQUE INDEX ON "OrderFloor"("outTradeNo")`)

  /** 100 paid orders whose notifications have not been sent, and a copy of them for the floor. */
  async function paidOrders(): Promise<Note[]> {
    const notes: Note[] = []
    for (let i = 0; i < NOTIFICATIONS; i++) {
      const user = await createUser()
      const { order } = await placeOrder(user.token, { productId: pack.id, type: 'POINTS', channel: 'WECHAT' })
      await world.wechat.pay(order.outTradeNo, { notify: false })
      notes.push(world.wechat.notificationFor(order.outTradeNo))
    }
    await pool.query(`DELETE FROM "OrderFloor"`)
    await pool.query(`INSERT INTO "OrderFloor" SELECT * FROM "Order" WHERE "status" = 'PENDING'`)
    return notes
  }

  const app = async (notes: Note[]) =>
    load(notes.length, notes.length, async (i) => {
      const res = await notifyRoute.POST(
        new Request('http://localhost/api/pay/wechat/notify', { method: 'POST', headers: notes[i]!.headers, body: notes[i]!.body }),
      )
      if (res.status !== 204) throw new Error(`notify answered ${res.status}`)
    })

  const floor = async (notes: Note[]) =>
    load(notes.length, notes.length, async (i) => {
      const n = notes[i]!
      const headers = new Headers(n.headers)
      const verdict = verifyWechatSignature(
        {
          timestamp: headers.get('wechatpay-timestamp'),
          nonce: headers.get('wechatpay-nonce'),
          signature: headers.get('wechatpay-signature'),
          serial: headers.get('wechatpay-serial'),
          body: n.body,
        },
        () => platformKey,
      )
      if (!verdict.ok) throw new Error(verdict.reason)
      const envelope = JSON.parse(n.body) as { resource: Parameters<typeof decryptResource>[0] }
      const t = JSON.parse(decryptResource(envelope.resource, world.wechat.keys.apiV3Key)) as { out_trade_no: string; transaction_id: string }
      await pool.query(
        `UPDATE "OrderFloor" SET "status" = 'SUCCESS', "providerTxnId" = $2, "paidAt" = now() WHERE "outTradeNo" = $1 AND "status" = 'PENDING'`,
        [t.out_trade_no, t.transaction_id],
      )
    })

  // Warm-up: the first requests load modules and open connections.
  await app((await paidOrders()).slice(0, 20))

  const rows: Row[] = []
  for (let round = 1; round <= ROUNDS; round++) {
    const notes = await paidOrders()
    const f = await floor(notes)
    const a = await app(notes)
    const throughput = (r: { wallMs: number }) => (NOTIFICATIONS / r.wallMs) * 1000
    rows.push(
      {
        what: `round ${round}: p50`,
        ours: fmt(percentile(a.latencies, 50)),
        floor: fmt(percentile(f.latencies, 50)),
        ratio: ratio(percentile(a.latencies, 50), percentile(f.latencies, 50)),
      },
      {
        what: `round ${round}: p99`,
        ours: fmt(percentile(a.latencies, 99)),
        floor: fmt(percentile(f.latencies, 99)),
        ratio: ratio(percentile(a.latencies, 99), percentile(f.latencies, 99)),
      },
      {
        what: `round ${round}: throughput`,
        ours: `${throughput(a).toFixed(0)} /s`,
        floor: `${throughput(f).toFixed(0)} /s`,
        ratio: ratio(throughput(f), throughput(a)),
      },
    )
  }
  printTable(`${NOTIFICATIONS} concurrent distinct WeChat Pay notifications (throughput ratio: floor / app)`, rows)
} finally {
  await pool.end()
  await world.close()
  await disconnectDb()
  await database.drop()
}
