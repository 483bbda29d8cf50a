import { describe, expect, it } from 'vitest'
import { ZEnvSchema, parseEnv } from '@/lib/env'

const SECRET = 'x'.repeat(32)

function errorOf(source: Record<string, string | undefined>): Error {
  try {
    parseEnv(source)
  } catch (error) {
    expect(error).toBeInstanceOf(Error)
    return error as Error
  }
  throw new Error(`expected parseEnv to throw for ${JSON.stringify(source)}`)
}

describe('parseEnv defaults', () => {
  it('an empty environment gets every default', () => {
    const env = parseEnv({})
    expect(Object.keys(env).every((k) => k in ZEnvSchema.shape)).toBe(true)
    expect(env).toMatchObject({
      NODE_ENV: 'development',
      DATABASE_POOL_SIZE: 10,
      DATA_DIR: './data',
      PORT: 3000,
      LISTEN_HOST: '0.0.0.0',
      ADMIN_USERNAME: 'admin',
      TRUST_PROXY: false,
      RUN_WORKER_IN_WEB: false,
      WORKER_TASK_SLOTS: 4,
      WORKER_DRAIN_SECONDS: 25,
      WORKER_LEASE_SECONDS: 60,
      BACKEND_CHECK_SECONDS: 60,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: false,
    })
  })

  it('leaves the optional values unset', () => {
    const env = parseEnv({})
    expect(env.DATABASE_URL).toBeUndefined()
    expect(env.AUTH_SECRET).toBeUndefined()
    expect(env.PUBLIC_URL).toBeUndefined()
    expect(env.ADMIN_PASSWORD).toBeUndefined()
  })

  it('ignores variables it does not know', () => {
    const env = parseEnv({ PATH: '/usr/bin', HOME: '/root' }) as Record<string, unknown>
    expect(env.PATH).toBeUndefined()
    expect(env.HOME).toBeUndefined()
  })
})

describe('parseEnv valid values', () => {
  it('accepts a full production configuration', () => {
    const env = parseEnv({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgresql://aiimg:pw@db:5432/aiimg',
      DATABASE_POOL_SIZE: '25',
      AUTH_SECRET: SECRET,
      DATA_DIR: '/app/data',
      PORT: '8080',
      LISTEN_HOST: '127.0.0.1',
      PUBLIC_URL: 'https://ai.example.com',
      ADMIN_USERNAME: 'root_admin',
      ADMIN_PASSWORD: 'correct horse',
      TRUST_PROXY: 'true',
      RUN_WORKER_IN_WEB: '1',
      WORKER_TASK_SLOTS: '8',
      WORKER_DRAIN_SECONDS: '60',
      WORKER_LEASE_SECONDS: '10',
      BACKEND_CHECK_SECONDS: '5',
    })
    expect(env).toMatchObject({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgresql://aiimg:pw@db:5432/aiimg',
      DATABASE_POOL_SIZE: 25,
      AUTH_SECRET: SECRET,
      DATA_DIR: '/app/data',
      PORT: 8080,
      LISTEN_HOST: '127.0.0.1',
      PUBLIC_URL: 'https://ai.example.com',
      ADMIN_USERNAME: 'root_admin',
      ADMIN_PASSWORD: 'correct horse',
      TRUST_PROXY: true,
      RUN_WORKER_IN_WEB: true,
      WORKER_TASK_SLOTS: 8,
      WORKER_DRAIN_SECONDS: 60,
      WORKER_LEASE_SECONDS: 10,
      BACKEND_CHECK_SECONDS: 5,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: false,
    })
  })

  it('accepts postgres:// as well as postgresql://', () => {
    expect(parseEnv({ DATABASE_URL: 'postgres://u@localhost/db' }).DATABASE_URL).toBe('postgres://u@localhost/db')
  })

  it.each([
    ['true', true],
    ['1', true],
    ['false', false],
    ['0', false],
    ['', false],
  ])('boolean %j → %s', (value, expected) => {
    expect(parseEnv({ TRUST_PROXY: value }).TRUST_PROXY).toBe(expected)
    expect(parseEnv({ RUN_WORKER_IN_WEB: value }).RUN_WORKER_IN_WEB).toBe(expected)
  })

  it('TRUST_PROXY_FROM takes addresses and CIDRs of both families', () => {
    expect(parseEnv({ TRUST_PROXY_FROM: '203.0.113.9, 10.0.0.0/8,2001:db8::/32' }).TRUST_PROXY_FROM).toBe('203.0.113.9, 10.0.0.0/8,2001:db8::/32')
    expect(parseEnv({ TRUST_PROXY_FROM: '' }).TRUST_PROXY_FROM).toBeUndefined() // compose passes an unset one as empty: the private networks
  })

  it('an AUTH_SECRET of exactly 32 characters is enough', () => {
    expect(parseEnv({ AUTH_SECRET: SECRET }).AUTH_SECRET).toBe(SECRET)
  })
})

describe('parseEnv rejects malformed values, naming the variable', () => {
  it.each([
    ['DATABASE_URL', 'mysql://root@localhost/db'],
    ['DATABASE_URL', 'localhost:5432'],
    ['MIGRATION_DATABASE_URL', 'mysql://root@localhost/db'],
    ['AUTH_SECRET', 'short'],
    ['AUTH_SECRET', 'x'.repeat(31)],
    ['PORT', 'abc'],
    ['PORT', '0'],
    ['PORT', '65536'],
    ['PORT', '80.5'],
    ['DATABASE_POOL_SIZE', '0'],
    ['DATABASE_POOL_SIZE', 'many'],
    ['NODE_ENV', 'staging'],
    ['PUBLIC_URL', 'not a url'],
    ['ADMIN_USERNAME', 'a'],
    ['ADMIN_USERNAME', 'bad name!'],
    ['ADMIN_PASSWORD', 'short'],
    ['TRUST_PROXY', 'yes'],
    ['TRUST_PROXY_FROM', 'nginx'],
    ['TRUST_PROXY_FROM', '10.0.0.0/33'],
    ['TRUST_PROXY_FROM', '10.0.0.1, 2001:db8::/129'],
    ['RUN_WORKER_IN_WEB', 'TRUE'],
    // A lease shorter than a few heartbeats would lose live workers' tasks.
    ['WORKER_LEASE_SECONDS', '3'],
    ['BACKEND_CHECK_SECONDS', '1'],
  ])('%s=%j', (name, value) => {
    const error = errorOf({ [name]: value })
    expect(error.message).toContain(name)
    expect(error.message).toMatch(/^Invalid environment configuration/)
    // Only the bad variable is named.
    for (const other of Object.keys(ZEnvSchema.shape)) {
      if (other !== name && !name.startsWith(other) && !other.startsWith(name)) expect(error.message).not.toContain(` ${other}:`)
    }
  })

  it('names every bad variable at once', () => {
    const error = errorOf({ DATABASE_URL: 'mysql://x', AUTH_SECRET: 'short', PORT: 'http' })
    expect(error.message).toContain('DATABASE_URL')
    expect(error.message).toContain('AUTH_SECRET')
    expect(error.message).toContain('PORT')
  })

  it('does not echo the secret value itself', () => {
    const error = errorOf({ AUTH_SECRET: 'hunter2-secret' })
    expect(error.message).not.toContain('hunter2-secret')
  })
})

describe('parseEnv treats an empty value as not set', () => {
  it.each(['DATA_DIR', 'ADMIN_PASSWORD', 'PUBLIC_URL', 'PORT'])('%s=""', (name) => {
    const parsed = parseEnv({ [name]: '' })
    expect(parsed).toEqual(parseEnv({}))
  })
})

describe('parseEnv and object storage', () => {
  it('needs the endpoint and both keys once a bucket is named, naming each missing one', () => {
    const error = errorOf({ S3_BUCKET: 'aiimg', S3_ENDPOINT: 'https://oss-cn-hangzhou.aliyuncs.com' })
    expect(error.message).toContain('S3_ACCESS_KEY_ID: required when S3_BUCKET is set')
    expect(error.message).toContain('S3_SECRET_ACCESS_KEY: required when S3_BUCKET is set')
    expect(error.message).not.toContain('S3_ENDPOINT:')
  })
  it('accepts a complete configuration', () => {
    const env = parseEnv({
      S3_BUCKET: 'b',
      S3_ENDPOINT: 'https://cos.ap-shanghai.myqcloud.com',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
    })
    expect(env).toMatchObject({ S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: true, S3_REGION: 'us-east-1' })
  })
})
