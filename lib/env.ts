import { isIP } from 'node:net'
import { z } from 'zod'

/**
 * Every environment variable the app reads, validated once. Nothing else reads
 * process.env (scripts/start.ts fills in the embedded default's values before the app
 * starts). A missing or malformed variable stops start-up with its name.
 */
/** 203.0.113.5, 10.0.0.0/8, 2001:db8::/32. */
function isAddressOrCidr(entry: string): boolean {
  const [address = '', bits, extra] = entry.split('/')
  const version = isIP(address)
  if (!version || extra !== undefined) return false
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128))
}

const booleanString = z.enum(['true', 'false', '1', '0', '']).transform((v) => v === 'true' || v === '1')

export const ZEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** PostgreSQL connection URL. Unset: scripts/start.ts runs the embedded PGlite and sets it. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// URL')
    .optional(),
  /**
   * Migrations only: the role that owns the schema. Set, `npm start` and `npm run db:migrate`
   * apply migrations with it, and DATABASE_URL may be a role that only reads and writes rows
   * (docker-compose.yml). Unset: migrations use DATABASE_URL.
   */
  MIGRATION_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// URL')
    .optional(),
  /** Connections per process in the pool. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** Signs and encrypts login tokens and secret site settings: at least 32 random characters. */
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters (openssl rand -base64 48)').optional(),
  /** Where the embedded database, generated secrets and stored files live. */
  DATA_DIR: z.string().min(1).default('./data'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** Address to listen on (not HOSTNAME, which Docker sets to the container's name). */
  LISTEN_HOST: z.string().min(1).default('0.0.0.0'),
  /** Public origin of the site, e.g. https://ai.example.com (OAuth callbacks, payment notifications). */
  PUBLIC_URL: z.url().optional(),
  /** The first administrator, created on first start when no ADMIN exists. */
  ADMIN_USERNAME: z
    .string()
    .regex(/^[a-zA-Z0-9_]{3,32}$/, 'must be 3-32 letters, digits or _')
    .default('admin'),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  /** Trust X-Forwarded-For / X-Real-IP from a reverse proxy for the client address. */
  TRUST_PROXY: booleanString.default(false),
  /** How many proxies of the site's own stand in front of it (2: a CDN, then nginx); see lib/http/client-ip.ts. */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(1).max(5).default(1),
  /**
   * Where that proxy connects from (addresses or CIDRs, comma-separated); from anywhere else the
   * forwarded headers are ignored. Default: loopback and private networks (lib/http/client-ip.ts).
   */
  TRUST_PROXY_FROM: z
    .string()
    .optional()
    .refine((list) => !list?.trim() || list.split(',').every((entry) => isAddressOrCidr(entry.trim())), {
      message: 'must be IP addresses or CIDRs, comma-separated',
    }),
  /** Generation tasks one worker process runs at once (most of the time is spent waiting on backends). */
  WORKER_TASK_SLOTS: z.coerce.number().int().min(1).max(64).default(4),
  /** Seconds a stopping worker gives running tasks to finish before handing them to other workers. */
  WORKER_DRAIN_SECONDS: z.coerce.number().int().min(0).max(3600).default(25),
  /**
   * A claimed task's lease: a worker that stops answering (killed, frozen, cut off) loses
   * its tasks to the others within 1.5 times this (heartbeats every quarter of it, the
   * sweeper looks every half).
   */
  WORKER_LEASE_SECONDS: z.coerce.number().int().min(4).max(600).default(60),
  /** How often the worker asks each enabled backend for its health (two failures in a row take it out of routing). */
  BACKEND_CHECK_SECONDS: z.coerce.number().int().min(2).max(3600).default(60),
  /**
   * S3-compatible object storage for stored files (AWS S3, Aliyun OSS, Tencent COS, MinIO).
   * Unset S3_BUCKET: files stay in DATA_DIR/files and are served by the app.
   */
  S3_BUCKET: z.string().min(1).optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Address files are read from by browsers (a CDN or the bucket's public domain). */
  S3_PUBLIC_URL: z.url().optional(),
  /** bucket in the path (MinIO) instead of the host name (AWS, OSS, COS). */
  S3_FORCE_PATH_STYLE: booleanString.default(false),
  /** Set by scripts/start.ts when it runs the embedded database (a trial or development setup, not a production deployment). */
  EMBEDDED_DATABASE: booleanString.default(false),
  /** WeChat API hosts (tests point them at fakes). */
  WX_API_BASE: z.url().default('https://api.weixin.qq.com'),
  WX_OPEN_BASE: z.url().default('https://open.weixin.qq.com'),
  /** Payment provider hosts (tests point them at fakes). */
  WXPAY_API_BASE: z.url().default('https://api.mch.weixin.qq.com'),
  ALIPAY_GATEWAY: z.url().default('https://openapi.alipay.com/gateway.do'),
  /** SMS provider endpoints (tests point them at fakes). */
  ALIYUN_SMS_ENDPOINT: z.url().default('https://dysmsapi.aliyuncs.com'),
  TENCENT_SMS_ENDPOINT: z.url().default('https://sms.tencentcloudapi.com'),
  /**
   * How long a web process may reuse a signed-in user it looked up (seconds; 0 = look up
   * on every request). Changes to a user reach every process at once through a database
   * notification (lib/auth/session-cache.ts); this bounds a missed one. Unset: 10, and 0
   * under NODE_ENV=test.
   */
  SESSION_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).optional(),
  /**
   * The same for the answers a web process keeps (the wall's pages, the console's reports:
   * lib/signals/answer-cache.ts), which a database notification drops when what they show
   * changes. Unset: 10, and 0 under NODE_ENV=test.
   */
  ANSWER_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).optional(),
  /** Run the background worker inside the web process (the embedded default does). */
  RUN_WORKER_IN_WEB: booleanString.default(false),
})

export type TEnv = z.infer<typeof ZEnvSchema> & { AUTH_SECRET: string; DATABASE_URL: string }

const S3_REQUIRED = ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const

export function parseEnv(source: Record<string, string | undefined> = process.env): z.infer<typeof ZEnvSchema> {
  // `NAME=` in an env file means "not set", not "set to nothing".
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''))
  const result = ZEnvSchema.safeParse(present)
  const issues = result.success ? [] : result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
  if (result.success && result.data.S3_BUCKET) {
    for (const name of S3_REQUIRED) if (!result.data[name]) issues.push(`  ${name}: required when S3_BUCKET is set`)
  }
  if (issues.length) throw new Error(`Invalid environment configuration:\n${issues.join('\n')}`)
  return result.data!
}

/**
 * NODE_ENV alone, read at each call, for code that must not need the rest of the
 * environment (a bad value still stops it). `npm start` always sets production or development.
 */
export function nodeEnv(): TEnv['NODE_ENV'] {
  return ZEnvSchema.shape.NODE_ENV.parse(process.env.NODE_ENV || undefined)
}

/** The whole environment, for the launcher that hands it on to the web server it starts. */
export function processEnvironment(): Record<string, string | undefined> {
  return { ...process.env }
}

let cached: TEnv | undefined

/** The validated environment of a running web or worker process (which needs its secrets). */
export function env(): TEnv {
  if (cached) return cached
  const parsed = parseEnv()
  const missing = (['DATABASE_URL', 'AUTH_SECRET'] as const).filter((name) => !parsed[name])
  if (missing.length) {
    throw new Error(
      `Missing environment variable(s): ${missing.join(', ')}. Start the site with \`npm start\`, ` +
        'which sets them for the embedded database, or set them yourself (see README.md).',
    )
  }
  cached = parsed as TEnv
  return cached
}
