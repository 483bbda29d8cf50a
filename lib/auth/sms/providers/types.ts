/** Something that delivers a verification code to a mainland mobile number. */
export type SmsProvider = {
  readonly name: 'log' | 'aliyun' | 'tencent'
  sendCode(mobile: string, code: string): Promise<void>
}

/** The provider refused or could not be reached; `detail` is for the server log only. */
export class SmsSendError extends Error {
  constructor(readonly detail: string) {
    super(detail)
    this.name = 'SmsSendError'
  }
}

export const SMS_TIMEOUT_MS = 10_000

/** Reads a provider's JSON answer, or throws SmsSendError naming what came back instead. */
export async function readProviderJson(res: Response, provider: string): Promise<Record<string, unknown>> {
  const text = await res.text()
  try {
    const body: unknown = JSON.parse(text)
    if (body && typeof body === 'object') return body as Record<string, unknown>
  } catch {
    // handled below
  }
  throw new SmsSendError(`${provider}: HTTP ${res.status}, not JSON: ${text.slice(0, 200)}`)
}
