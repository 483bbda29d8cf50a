// GET /files/{key} from local storage (DATA_DIR/files): the stored bytes with their type
// and a one-year immutable cache; anything missing or not ours is a 404.
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { GET } from '@/app/files/[...key]/route'
import { newKey, putFile } from '@/lib/storage/storage'

const get = (url: string) => GET(new Request(`http://localhost${url}`), { params: Promise.resolve({ key: url.replace(/^\/files\//, '').split('/') }) })

describe('GET /files/...', () => {
  it.each([
    ['png', 'image/png'],
    ['webp', 'image/webp'],
  ] as const)('serves a stored .%s as %s with the long immutable cache header', async (extension, type) => {
    const image = sharp({ create: { width: 16, height: 16, channels: 3, background: '#c03' } })
    const bytes = await (extension === 'png' ? image.png() : image.webp()).toBuffer()
    const url = await putFile(newKey('results', extension), bytes)
    expect(url).toMatch(new RegExp(`^/files/results/.+\\.${extension}$`))

    const res = await get(url)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe(type)
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true)
  })

  it('answers 404 for a missing file, a path out of the folder and a type it does not serve', async () => {
    const html = path.join(process.env.DATA_DIR!, 'files', 'results', 'page.html')
    await mkdir(path.dirname(html), { recursive: true })
    await writeFile(html, '<script>alert(1)</script>')
    for (const url of ['/files/results/never-stored.png', '/files/results/../../../package.json', '/files/results/page.html', '/files/results']) {
      const res = await get(url)
      expect(res.status, url).toBe(404)
      expect(res.headers.get('cache-control'), url).toBeNull()
    }
  })
})
