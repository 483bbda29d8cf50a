import type { SmsProvider } from './types'

/** Writes the code to the server log instead of sending it (the embedded default and development only). */
export function logSmsProvider(): SmsProvider {
  return {
    name: 'log',
    async sendCode(mobile, code) {
      console.log(`SMS to ${mobile}: ${code}`)
    },
  }
}
