// SSRF: a model backend pointed at a link-local or cloud metadata address, in any spelling
// (IPv4, decimal, hex, IPv4-mapped IPv6, AWS's IPv6), is refused, at saving or at 测试连接,
// with a Chinese message. Loopback and private addresses stay allowed for backends on purpose
// (an operator's relay on the LAN, docs/RELIABILITY.md §2); user-given URLs have their own,
// stricter list (lib/net/safe-fetch.ts, unit-tested).
import { asAdmin, uniqueName } from '../e2e/support/session'
import { expect, figure, test } from './support/fixtures'

const TARGETS = [
  'http://169.254.169.254/latest/meta-data/',
  'http://169.254.170.2/v2/credentials',
  'http://100.100.100.200/latest/meta-data/',
  'http://2852039166/',
  'http://0xA9FEA9FE/',
  'http://0251.0376.0251.0376/',
  'http://[::ffff:169.254.169.254]/',
  'http://[::ffff:a9fe:a9fe]/',
  'http://[fd00:ec2::254]/',
  'http://[fe80::1]/',
]

test('model backends at metadata and link-local addresses are refused', async ({ request }) => {
  test.setTimeout(120_000)
  const admin = await asAdmin(request)
  const outcomes: string[] = []
  for (const endpoint of TARGETS) {
    const created = await request.post('/api/admin/models', {
      headers: admin,
      data: { name: uniqueName('ssrf'), type: 'MID_JOURNEY', backend: 'mj-proxy', endpoint, secret: 'x', prices: { MJ_IMAGINE: 5 }, enabled: false },
    })
    if (!created.ok()) {
      expect(created.status(), endpoint).toBe(400)
      const message = (await created.json()).errMessage
      expect(message, endpoint).toMatch(/拒绝|元数据|链路本地|地址/)
      outcomes.push(`${endpoint}: refused at saving (${message})`)
      continue
    }
    const id = (await created.json()).data.id
    const tested = await request.post(`/api/admin/models/${id}/test`, { headers: admin })
    expect(tested.ok(), await tested.text()).toBeTruthy()
    const result = (await tested.json()).data
    expect(result.ok, `${endpoint}: ${JSON.stringify(result)}`).toBe(false)
    expect(`${result.message} ${result.detail ?? ''}`, endpoint).toMatch(/拒绝|元数据|链路本地/)
    outcomes.push(`${endpoint}: refused at 测试连接`)
    await request.delete(`/api/admin/models/${id}`, { headers: admin })
  }
  figure('SSRF targets refused', `${outcomes.length} / ${TARGETS.length}`)
  console.log(outcomes.join('\n'))
})
