import { z } from 'zod'

// Validation messages in Chinese, for every schema of the app (server and browser).
z.config(z.locales.zhCN())

export { z }
