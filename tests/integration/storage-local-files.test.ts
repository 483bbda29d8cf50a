// GET /files/{key} from local storage (DATA_DIR/files): the stored bytes with their type
// and a one-year immutable cache; anything missing or not ours is a 404. ?download=<name>
// serves the same bytes as an attachment saved under that name.
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { GET } from '@/app/files/[...key]/route'
import { downloadLink, newKey, putFile } from '@/lib/storage/storage'

const get = (url: string) =>
  GET(new Request(`http://localhost${url}`), {
    params: Promise.resolve({
      key: url
        .replace(/^\/files\//, '')
        .replace(/\?.*$/, '')
        .split('/'),
    }),
  })

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

  it('the download link saves the file under the name given, as an attachment; a name unfit for the header falls back to the key’s', async () => {
    const bytes = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#0c3' } })
      .png()
      .toBuffer()
    const key = newKey('results', 'png')
    const url = await putFile(key, bytes)
    expect((await get(url)).headers.get('content-disposition')).toBe('inline')

    const link = downloadLink(key, 'task-1.png')
    expect(link).toBe(`${url}?download=task-1.png`)
    const res = await get(link)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="task-1.png"')
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true)

    const odd = await get(`${url}?download=${encodeURIComponent('a"\r\nSet-Cookie: x=1')}`)
    expect(odd.headers.get('content-disposition')).toBe(`attachment; filename="${key.split('/').at(-1)}"`)
    expect((await get('/files/results/never-stored.png?download=x.png')).status).toBe(404)
  })
})
