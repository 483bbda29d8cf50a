// Uploads (POST /api/uploads and the avatar): 10 MB + 1 byte, HTML sent as a PNG, SVG, and a
// 20000×20000 PNG bomb are all refused with a clear Chinese message; the bomb's time and the web
// process's peak memory around it are printed (docs/RELIABILITY.md §3).
import { readFileSync, readdirSync } from 'node:fs'
import { crc32, deflateSync } from 'node:zlib'
import { E2E_WEB_PID_FILE } from '../e2e/support/constants'
import { registerViaApi } from '../e2e/support/session'
import { expect, figure, test } from './support/fixtures'

const MB = 1024 * 1024

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** A valid 1-bit greyscale PNG of side×side white pixels: a few tens of KB that decode to side² pixels. */
function pngBomb(side: number): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(side, 0)
  header.writeUInt32BE(side, 4)
  header[8] = 1 // bit depth
  header[9] = 0 // greyscale
  const row = Math.ceil(side / 8) + 1 // filter byte + packed pixels
  const raw = Buffer.alloc(row * side)
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))])
}

/** The peak resident memory (VmHWM, MB) of the web process tree: the launcher and the Next server. */
function webPeakMemoryMb(): number {
  const root = Number(readFileSync(E2E_WEB_PID_FILE, 'utf8'))
  const parent = new Map<number, number>()
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
    } catch {
      // The process ended while we looked.
    }
  }
  const tree = [...parent.keys()].filter((pid) => {
    for (let p = pid; p; p = parent.get(p) ?? 0) if (p === root) return true
    return false
  })
  return Math.max(
    ...tree.map((pid) => {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8')
      return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024
    }),
  )
}

test('oversized, disguised, SVG and bomb uploads are refused', async ({ request }) => {
  test.setTimeout(120_000)
  const user = await registerViaApi(request)
  const headers = { authorization: `Bearer ${user.token}` }
  const upload = (url: string, name: string, mimeType: string, buffer: Buffer) =>
    request.post(url, { headers, multipart: { file: { name, mimeType, buffer } } })

  for (const url of ['/api/uploads', '/api/users/avatar']) {
    const tooBig = await upload(url, 'big.png', 'image/png', Buffer.alloc(10 * MB + 1, 1))
    expect(tooBig.status(), `${url} 10MB+1`).toBe(413)
    expect((await tooBig.json()).errMessage).toMatch(/10MB/)

    const html = await upload(url, 'page.png', 'image/png', Buffer.from('<!doctype html><html><script>window.__xss=1</script></html>'))
    expect(html.status(), `${url} HTML as PNG`).toBe(400)
    expect((await html.json()).errMessage).toMatch(/[\u4e00-\u9fa5]/)

    const svg = await upload(
      url,
      'logo.svg',
      'image/svg+xml',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="window.__xss=1"><rect width="9" height="9"/></svg>'),
    )
    expect(svg.status(), `${url} SVG`).toBe(400)
  }

  const bomb = pngBomb(20_000)
  const memoryBefore = webPeakMemoryMb()
  const started = performance.now()
  const refused = await upload('/api/uploads', 'bomb.png', 'image/png', bomb)
  const ms = performance.now() - started
  const memoryAfter = webPeakMemoryMb()
  expect(refused.status()).toBe(400)
  expect((await refused.json()).errMessage).toMatch(/[\u4e00-\u9fa5]/)
  figure('PNG bomb (20000×20000, bytes)', bomb.length)
  figure('PNG bomb refused in (ms)', Math.round(ms))
  figure('web peak memory before / after the bomb (MB)', `${Math.round(memoryBefore)} / ${Math.round(memoryAfter)}`)
})
