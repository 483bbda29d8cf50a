import 'server-only'
import { AlipaySdk } from 'alipay-sdk'
import type { AlipayMerchant } from '../merchants'

/** alipay-sdk on the classic gateway (ALIPAY_GATEWAY), RSA2 in public-key mode. */
export function alipayClient(merchant: AlipayMerchant): AlipaySdk {
  return new AlipaySdk({
    appId: merchant.appId,
    privateKey: merchant.privateKeyPem,
    keyType: 'PKCS1',
    alipayPublicKey: merchant.alipayPublicKeyPem,
    gateway: merchant.gateway,
    timeout: 10_000,
    camelcase: true,
  })
}
