import { createSecretBox } from '@/lib/crypto/secret-box'

/** Chat models' API keys are stored encrypted and never leave the server. */
const box = createSecretBox('chat model secrets')
export const sealChatSecret = box.seal
export const openChatSecret = box.open
