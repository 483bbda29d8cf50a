// The WeChat and SMS fakes the e2e site talks to: started by tests/e2e/server.ts (the app
// reads their addresses from env), controlled by the specs over HTTP through the file
// that server.ts writes.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { startFakeAliyunSms } from '../../fakes/sms-aliyun'
import { startFakeTencentSms } from '../../fakes/sms-tencent'
import { startFakeWechat, type WechatPerson } from '../../fakes/wechat'

export const E2E_WECHAT = {
  appId: 'wx00e2e0000000e2e0',
  secret: 'e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0',
  openAppId: 'wx0e2e0e2e0e2e0e2e',
  openSecret: '0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e',
}
export const E2E_ALIYUN = {
  accessKeyId: 'LTAI5tE2eAccessKey001',
  accessKeySecret: 'e2eAliyunSecret0123456789abcdef',
  signName: 'AI画室',
  templateCode: 'SMS_300000001',
}
export const E2E_TENCENT = {
  secretId: 'AKIDe2eSecretId0123456789abcdefghij',
  secretKey: 'e2eTencentSecretKey0123456789abc',
  sdkAppId: '1400900900',
  signName: 'AI画室',
  templateId: '2000001',
}

const FAKES_FILE = path.resolve(import.meta.dirname, '../../../.tmp/e2e-sign-in-fakes.json')
type Addresses = { wechat: string; aliyun: string; tencent: string }

/** Starts the fakes and writes down where they listen; returns the env the site needs. */
export async function startSignInFakes(): Promise<{ env: Record<string, string>; close(): Promise<void> }> {
  const wechat = await startFakeWechat({
    apps: { [E2E_WECHAT.appId]: E2E_WECHAT.secret, [E2E_WECHAT.openAppId]: E2E_WECHAT.openSecret },
    person: { openid: 'o-nobody', nickname: '未设置' },
  })
  const aliyun = await startFakeAliyunSms(E2E_ALIYUN)
  const tencent = await startFakeTencentSms(E2E_TENCENT)
  const addresses: Addresses = { wechat: wechat.url, aliyun: aliyun.url, tencent: tencent.url }
  await mkdir(path.dirname(FAKES_FILE), { recursive: true })
  await writeFile(FAKES_FILE, JSON.stringify(addresses))
  return {
    env: { WX_API_BASE: wechat.url, WX_OPEN_BASE: wechat.url, ALIYUN_SMS_ENDPOINT: aliyun.url, TENCENT_SMS_ENDPOINT: tencent.url },
    async close() {
      await Promise.all([wechat.close(), aliyun.close(), tencent.close()])
      await rm(FAKES_FILE, { force: true })
    },
  }
}

export async function fakeAddresses(): Promise<Addresses> {
  return JSON.parse(await readFile(FAKES_FILE, 'utf8')) as Addresses
}

/** The WeChat user the fake's authorize page signs in next. */
export async function setWechatPerson(person: WechatPerson): Promise<void> {
  const res = await fetch(`${(await fakeAddresses()).wechat}/__fake/person`, { method: 'POST', body: JSON.stringify(person) })
  if (!res.ok) throw new Error(`fake WeChat refused the person: ${res.status}`)
}

export async function wechatAvatarUrl(name: string): Promise<string> {
  return `${(await fakeAddresses()).wechat}/avatar/${name}.png`
}

/** The last code the fake provider delivered to this phone (waits for it to arrive). */
export async function lastSmsCode(provider: 'aliyun' | 'tencent', mobile: string): Promise<string> {
  const base = (await fakeAddresses())[provider]
  for (let i = 0; i < 50; i++) {
    const sent = (await (await fetch(`${base}/__fake/messages?mobile=${mobile}`)).json()) as { code: string }[]
    if (sent.length) return sent.at(-1)!.code
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`no SMS reached ${mobile}`)
}
