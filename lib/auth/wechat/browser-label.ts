/**
 * A short, readable name for the browser behind a User-Agent ("Chrome 124 · Windows"),
 * shown on the phone before a desktop QR login is confirmed. Only a hint for a person:
 * a User-Agent is whatever the desktop says it is.
 */
const BROWSERS: Array<[RegExp, string]> = [
  [/MicroMessenger\/(\d+)/, '微信'],
  [/Edg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/OPR\/(\d+)/, 'Opera'],
  [/QQBrowser\/(\d+)/, 'QQ浏览器'],
  [/UCBrowser\/(\d+)/, 'UC浏览器'],
  [/Firefox\/(\d+)/, 'Firefox'],
  [/(?:Chrome|CriOS)\/(\d+)/, 'Chrome'],
  [/Version\/(\d+)[^ ]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
]

const SYSTEMS: Array<[RegExp, string]> = [
  [/Windows NT/, 'Windows'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
]

export const UNKNOWN_BROWSER = '未知浏览器'

export function browserLabel(userAgent: string | null | undefined): string {
  const ua = (userAgent ?? '').slice(0, 512)
  const browser = BROWSERS.map(([pattern, name]) => {
    const match = pattern.exec(ua)
    return match ? `${name} ${match[1]}` : null
  }).find(Boolean)
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1]
  if (!browser && !system) return UNKNOWN_BROWSER
  return [browser ?? UNKNOWN_BROWSER, system].filter(Boolean).join(' · ')
}
