import { createSecretBox } from '@/lib/crypto/secret-box'

/** Backend credentials (API keys, basic-auth pairs) are stored encrypted. */
const box = createSecretBox('backend secrets')
export const sealModelSecret = box.seal
export const openModelSecret = box.open
