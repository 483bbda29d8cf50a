import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { ZEnvSchema, parseEnv } from '@/lib/env'
import { at, first, only } from '../helpers/present'

/**
 * There is no Docker engine on the development machines (docs/DEVELOPMENT.md §4), so the self-hosting
 * files are checked here: they must agree with each other, with package.json and with the
 * environment lib/env.ts validates.
 */
const root = path.resolve(import.meta.dirname, '../..')
const read = (file: string) => readFileSync(path.join(root, file), 'utf8')

// ---------- docker-compose.yml ----------

type Service = {
  image?: string
  build?: unknown
  command?: string | string[]
  ports?: Array<string | { target: number; published?: string | number }>
  environment?: Record<string, string | number | boolean | null> | string[]
  depends_on?: string[] | Record<string, { condition?: string }>
  volumes?: Array<string | { type?: string; source?: string; target: string }>
  healthcheck?: { test?: string | string[]; disable?: boolean }
}
type Compose = { services: Record<string, Service>; volumes?: Record<string, unknown> }

const compose = parse(read('docker-compose.yml')) as Compose
const services = compose.services ?? {}

/** A service the compose file must have. */
function service(name: string): Service {
  const found = services[name]
  if (!found) throw new Error(`docker-compose.yml has no service ${name}`)
  return found
}

/** environment as a map; list entries without '=' become null (passed through from the shell). */
function environmentOf(service: Service): Record<string, string | null> {
  const env = service.environment ?? {}
  if (Array.isArray(env)) {
    return Object.fromEntries(
      env.map((entry) => {
        const at = entry.indexOf('=')
        return at < 0 ? [entry, null] : [entry.slice(0, at), entry.slice(at + 1)]
      }),
    )
  }
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === null || v === undefined ? null : String(v)]))
}

/** Compose interpolation of ${VAR}, ${VAR:-default} and ${VAR:?error} against `shell`. */
function interpolate(value: string, shell: Record<string, string>): string {
  return value.replace(/\$\{([A-Z0-9_]+)(?:(:?[-?])([^}]*))?\}/g, (_all, name: string, op: string | undefined, arg: string) => {
    const set = shell[name]
    if (op === ':-' || op === '-') return set || arg
    if (op === ':?' || op === '?') {
      if (!set) throw new Error(`compose would stop: ${name} ${arg}`)
      return set
    }
    return set ?? ''
  })
}

/** The environment a container of `service` gets, given the shell's variables. */
function containerEnv(service: Service, shell: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(environmentOf(service))) {
    if (value === null) {
      if (shell[key] !== undefined) out[key] = shell[key]
    } else out[key] = interpolate(value, shell)
  }
  return out
}

function containerPorts(service: Service): number[] {
  return (service.ports ?? []).map((port) => {
    if (typeof port === 'object') return Number(port.target)
    const [withoutProtocol = ''] = String(port).split('/')
    return Number(withoutProtocol.split(':').pop())
  })
}

function namedVolumeMounts(service: Service): Array<{ source: string; target: string }> {
  return (service.volumes ?? [])
    .map((v) => {
      if (typeof v === 'object') return { source: v.source ?? '', target: v.target }
      const [source = '', target = ''] = v.split(':')
      return { source, target }
    })
    .filter((m) => m.source && !m.source.startsWith('.') && !m.source.startsWith('/') && !m.source.startsWith('~'))
}

const dependsOn = (service: Service): Record<string, string | undefined> =>
  Array.isArray(service.depends_on)
    ? Object.fromEntries(service.depends_on.map((name) => [name, undefined]))
    : Object.fromEntries(Object.entries(service.depends_on ?? {}).map(([name, v]) => [name, v?.condition]))

const commandOf = (service: Service): string[] => (Array.isArray(service.command) ? service.command : (service.command ?? '').split(/\s+/).filter(Boolean))

const SHELL = { AUTH_SECRET: 'compose-test-secret-'.padEnd(48, 'x') }
const envKeys = Object.keys(ZEnvSchema.shape)

// ---------- Dockerfile ----------

type Instruction = { keyword: string; args: string }

/** Instructions with line continuations joined and comment lines dropped. */
function dockerInstructions(text: string): Instruction[] {
  const out: Instruction[] = []
  let current = ''
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (line.startsWith('#') || (!line && !current)) continue
    if (line.endsWith('\\')) {
      current += line.slice(0, -1) + ' '
      continue
    }
    current += line
    const match = current.match(/^(\S+)\s*(.*)$/s)
    if (match) out.push({ keyword: at(match, 1).toUpperCase(), args: at(match, 2).trim() })
    current = ''
  }
  return out
}

const dockerfile = dockerInstructions(read('Dockerfile'))
const globalArgs = Object.fromEntries(
  dockerfile
    .slice(
      0,
      dockerfile.findIndex((i) => i.keyword === 'FROM'),
    )
    .filter((i) => i.keyword === 'ARG')
    .map((i) => {
      const [name, value = ''] = i.args.split('=')
      return [name, value]
    }),
)
const resolveArgs = (text: string) => text.replace(/\$\{?([A-Z0-9_]+)\}?/g, (all, name: string) => globalArgs[name] ?? all)

const fromIndexes = dockerfile.flatMap((i, index) => (i.keyword === 'FROM' ? [index] : []))
const finalStage = dockerfile.slice(fromIndexes[fromIndexes.length - 1] ?? 0)
const inFinal = (keyword: string) => finalStage.filter((i) => i.keyword === keyword)

/** ENV KEY=value pairs of a list of instructions (KEY=value form; quotes removed). */
function envOf(instructions: Instruction[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const i of instructions.filter((x) => x.keyword === 'ENV')) {
    for (const m of i.args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S*)/g)) out[at(m, 1)] = at(m, 2).replace(/^"|"$/g, '')
  }
  return out
}

// ---------- tests ----------

describe('docker-compose.yml', () => {
  it('has the services db, migrate, web and worker', () => {
    expect(Object.keys(services).sort()).toEqual(['db', 'migrate', 'web', 'worker'])
  })

  it('db is PostgreSQL 16 with a health check and a named volume', () => {
    const db = service('db')
    expect(db.image).toBe('postgres:16-alpine')
    expect(JSON.stringify(db.healthcheck?.test)).toContain('pg_isready')
    expect(namedVolumeMounts(db)).toContainEqual({ source: expect.any(String), target: '/var/lib/postgresql/data' })
  })

  it('web is built from this folder and publishes port 3000', () => {
    const web = service('web')
    expect(web.build).toBeTruthy()
    expect(containerPorts(web)).toContain(3000)
    expect((web.ports ?? []).map(String)).toContain('3000:3000')
    expect(dependsOn(web).db).toBe('service_healthy')
  })

  it('worker runs `npm run worker` from the same image, after the database and the web app', () => {
    const worker = service('worker')
    expect(commandOf(worker)).toEqual(['npm', 'run', 'worker'])
    expect(worker.image ?? null).toBe(service('web').image ?? null)
    expect(worker.build ?? service('web').build).toEqual(service('web').build)
    expect(Object.keys(dependsOn(worker))).toEqual(expect.arrayContaining(['db', 'web']))
    expect(['service_started', 'service_healthy', undefined]).toContain(dependsOn(worker).web)
    expect(containerPorts(worker)).toEqual([])
  })

  it('the worker and the migrate step do not inherit the web health check they cannot pass', () => {
    expect(service('worker').healthcheck?.disable).toBe(true)
    expect(service('migrate').healthcheck?.disable).toBe(true)
  })

  it('every named volume is declared, and web and worker share the data volume at /app/data', () => {
    const declared = Object.keys(compose.volumes ?? {})
    expect(declared.length).toBeGreaterThanOrEqual(2)
    for (const [name, service] of Object.entries(services)) {
      for (const mount of namedVolumeMounts(service)) expect(declared, `${name} mounts ${mount.source}`).toContain(mount.source)
    }
    const webData = namedVolumeMounts(service('web')).find((m) => m.target === '/app/data')
    const workerData = namedVolumeMounts(service('worker')).find((m) => m.target === '/app/data')
    expect(webData).toBeDefined()
    expect(workerData?.source).toBe(webData?.source)
    const dbData = namedVolumeMounts(service('db')).find((m) => m.target === '/var/lib/postgresql/data')
    expect(dbData?.source).not.toBe(webData?.source)
  })

  it.each(['migrate', 'web', 'worker'])('every environment key of %s is a key of ZEnvSchema', (name) => {
    const keys = Object.keys(environmentOf(service(name)))
    expect(keys.length).toBeGreaterThan(0)
    for (const key of keys) expect(envKeys, `${name}: ${key}`).toContain(key)
  })

  it.each(['web', 'worker'])('%s gets DATABASE_URL and AUTH_SECRET', (name) => {
    const env = environmentOf(service(name))
    expect(env.DATABASE_URL).toBeTruthy()
    expect(env.AUTH_SECRET).toBeTruthy()
  })

  it('POSTGRES_* variables appear on the db service only', () => {
    for (const [name, service] of Object.entries(services)) {
      const postgresKeys = Object.keys(environmentOf(service)).filter((k) => k.startsWith('POSTGRES_'))
      if (name === 'db') expect(postgresKeys).toEqual(expect.arrayContaining(['POSTGRES_USER', 'POSTGRES_PASSWORD', 'POSTGRES_DB']))
      else expect(postgresKeys, name).toEqual([])
    }
  })

  it('AUTH_SECRET is required: compose stops when it is not set', () => {
    expect(() => containerEnv(service('web'), {})).toThrow(/AUTH_SECRET/)
    expect(() => containerEnv(service('worker'), {})).toThrow(/AUTH_SECRET/)
  })

  it('web and worker connect as the app role, the migrate step as the schema owner, none as the superuser', () => {
    const shell = { ...SHELL, POSTGRES_PASSWORD: 's3cret', DB_OWNER_PASSWORD: 'owner9', DB_APP_PASSWORD: 'app7' }
    const db = containerEnv(service('db'), shell)
    const expectUrl = (value: string | undefined, role: string | undefined, password: string | undefined) => {
      const url = new URL(value ?? '')
      expect(url.protocol).toBe('postgresql:')
      expect(url.hostname).toBe('db')
      expect(url.port).toBe('5432')
      expect(decodeURIComponent(url.username)).toBe(role)
      expect(decodeURIComponent(url.password)).toBe(password)
      expect(url.pathname).toBe(`/${db.POSTGRES_DB}`)
    }
    for (const name of ['web', 'worker']) {
      const env = containerEnv(service(name), shell)
      expectUrl(env.DATABASE_URL, db.AIIMG_APP_ROLE, 'app7')
      expect(env.MIGRATION_DATABASE_URL, name).toBeUndefined()
    }
    const migrate = containerEnv(service('migrate'), shell)
    expectUrl(migrate.MIGRATION_DATABASE_URL, db.AIIMG_OWNER_ROLE, 'owner9')
    expect(migrate.DATABASE_URL).toBeUndefined()
    expect(db.AIIMG_APP_ROLE).not.toBe(db.AIIMG_OWNER_ROLE)
    for (const role of [db.AIIMG_APP_ROLE, db.AIIMG_OWNER_ROLE]) expect(role).not.toBe(db.POSTGRES_USER)
    // The defaults agree too (the db service and the URLs read the same variables).
    const defaults = containerEnv(service('db'), {})
    expectUrl(containerEnv(service('web'), SHELL).DATABASE_URL, defaults.AIIMG_APP_ROLE, defaults.AIIMG_APP_PASSWORD)
    expectUrl(containerEnv(service('migrate'), SHELL).MIGRATION_DATABASE_URL, defaults.AIIMG_OWNER_ROLE, defaults.AIIMG_OWNER_PASSWORD)
  })

  it('the db service makes the roles on its first start: the script and the SQL it runs are mounted', () => {
    const mounts = (service('db').volumes ?? []).map(String).map((v) => v.split(':'))
    const init = mounts.find(([, target]) => target?.startsWith('/docker-entrypoint-initdb.d/'))
    expect(init, 'an init script in /docker-entrypoint-initdb.d').toBeDefined()
    const [scriptSource = '', scriptTarget] = init!
    expect(scriptTarget).toMatch(/\.sh$/)
    const script = read(scriptSource)
    // It reads the role names and passwords the db service is given.
    for (const name of ['AIIMG_OWNER_ROLE', 'AIIMG_OWNER_PASSWORD', 'AIIMG_APP_ROLE', 'AIIMG_APP_PASSWORD']) {
      expect(script).toContain(name)
      expect(environmentOf(service('db'))[name], name).toBeTruthy()
    }
    // ... and includes the SQL from where the db service mounts it.
    const included = /\\i\s+(\S+)/.exec(script)?.[1]
    const sql = mounts.find(([, target]) => target === included)
    expect(sql, `${included} mounted`).toBeDefined()
    const roles = read(first(sql!))
    expect(roles).toMatch(/GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public/)
    expect(roles).toMatch(/ALTER DEFAULT PRIVILEGES FOR ROLE %I IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES/)
    expect(roles).toMatch(/GRANT USAGE ON ALL SEQUENCES/)
    // The app role is granted nothing beyond rows, sequences and connecting (no TRUNCATE, TRIGGER, ALL).
    const granted = [...roles.matchAll(/GRANT ([A-Z, ]+?) ON [^']*'[^\n]*\bapp_role\)/g)].flatMap((m) => at(m, 1).split(/,\s*/))
    expect(granted.length).toBeGreaterThan(0)
    for (const privilege of granted) expect(['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'USAGE', 'CONNECT']).toContain(privilege)
  })

  it('migrate runs `npm run db:migrate` once from the same image, and web starts only after it succeeded', () => {
    const migrate = service('migrate')
    expect(commandOf(migrate)).toEqual(['npm', 'run', 'db:migrate'])
    expect(migrate.image ?? null).toBe(service('web').image ?? null)
    expect(migrate.build ?? service('web').build).toEqual(service('web').build)
    expect(dependsOn(migrate).db).toBe('service_healthy')
    expect(dependsOn(service('web')).migrate).toBe('service_completed_successfully')
    expect(containerPorts(migrate)).toEqual([])
  })

  it.each(['web', 'worker'])('the environment %s gets passes lib/env.ts validation (defaults and full)', (name) => {
    expect(() => parseEnv(containerEnv(service(name), SHELL))).not.toThrow()
    const full = {
      ...SHELL,
      POSTGRES_PASSWORD: 'pw123',
      ADMIN_USERNAME: 'boss',
      ADMIN_PASSWORD: 'a-long-password',
      PUBLIC_URL: 'https://ai.example.com',
      TRUST_PROXY: 'true',
      DB_APP_PASSWORD: 'app123',
    }
    const env = parseEnv(containerEnv(service(name), full))
    expect(env.DATABASE_URL).toBe('postgresql://aiimg_app:app123@db:5432/aiimg')
    expect(env.AUTH_SECRET).toBe(SHELL.AUTH_SECRET)
  })

  it('the environment migrate gets passes lib/env.ts validation', () => {
    const env = parseEnv(containerEnv(service('migrate'), { DB_OWNER_PASSWORD: 'owner123' }))
    expect(env.MIGRATION_DATABASE_URL).toBe('postgresql://aiimg_owner:owner123@db:5432/aiimg')
  })

  it('web passes the first-administrator and proxy settings through', () => {
    const env = containerEnv(service('web'), {
      ...SHELL,
      ADMIN_USERNAME: 'boss',
      ADMIN_PASSWORD: 'a-long-password',
      PUBLIC_URL: 'https://ai.example.com',
      TRUST_PROXY: 'true',
    })
    expect(env).toMatchObject({ ADMIN_USERNAME: 'boss', ADMIN_PASSWORD: 'a-long-password', PUBLIC_URL: 'https://ai.example.com' })
    expect(parseEnv(env).TRUST_PROXY).toBe(true)
  })
})

describe('Dockerfile', () => {
  it('is multi-stage on node:20-bookworm-slim', () => {
    expect(fromIndexes.length).toBeGreaterThanOrEqual(2)
    for (const index of fromIndexes) {
      const image = resolveArgs(first(at(dockerfile, index).args.split(/\s+/)))
      expect(image).toBe('node:20-bookworm-slim')
    }
  })

  it('installs with npm (from the lock file) and builds with npm run build, without telemetry', () => {
    const runs = dockerfile.filter((i) => i.keyword === 'RUN').map((i) => i.args)
    expect(runs.some((r) => /\bnpm install\b.*--ignore-scripts/.test(r))).toBe(true)
    expect(runs.some((r) => /\bnpm run build\b/.test(r))).toBe(true)
    const buildIndex = dockerfile.findIndex((i) => i.keyword === 'RUN' && /\bnpm run build\b/.test(i.args))
    const buildStageStart = Math.max(...fromIndexes.filter((i) => i < buildIndex))
    expect(envOf(dockerfile.slice(buildStageStart, buildIndex)).NEXT_TELEMETRY_DISABLED).toBe('1')
  })

  it('the runtime stage keeps node_modules and runs as a non-root user', () => {
    const copies = inFinal('COPY').map((i) => i.args)
    expect(copies.some((c) => /--from=\S+/.test(c) && (/node_modules/.test(c) || /\s\/app\/?\s/.test(` ${c} `)))).toBe(true)
    const users = inFinal('USER').map((i) => i.args)
    expect(users.length).toBeGreaterThan(0)
    expect(['root', '0', '0:0']).not.toContain(users[users.length - 1])
  })

  it('listens on every interface and keeps data in /app/data', () => {
    const env = envOf(finalStage)
    expect(env.LISTEN_HOST).toBe('0.0.0.0')
    expect(env.NODE_ENV).toBe('production')
    expect(env.DATA_DIR ?? '/app/data').toBe('/app/data')
  })

  it('EXPOSEs the port the compose file maps, and the app listens on it', () => {
    const exposed = inFinal('EXPOSE')
      .flatMap((i) => i.args.split(/\s+/))
      .map((p) => Number(p.split('/')[0]))
    for (const port of containerPorts(service('web'))) expect(exposed).toContain(port)
    const port = envOf(finalStage).PORT ?? String(parseEnv({}).PORT)
    expect(exposed).toContain(Number(port))
  })

  it('has a HEALTHCHECK fetching /api/site-config/site-info on 127.0.0.1:3000 with node', () => {
    const checks = inFinal('HEALTHCHECK')
    expect(checks).toHaveLength(1)
    const check = only(checks).args
    expect(check).toMatch(/CMD/)
    expect(check).toContain('node')
    expect(check).toContain('fetch(')
    expect(check).toContain('http://127.0.0.1:')
    expect(check).toMatch(/3000/)
    expect(check).toContain('/api/site-config/site-info')
  })

  it('CMD is ["npm","start"]', () => {
    const cmds = inFinal('CMD')
    expect(cmds).toHaveLength(1)
    expect(JSON.parse(only(cmds).args)).toEqual(['npm', 'start'])
    expect(inFinal('ENTRYPOINT')).toEqual([])
  })
})

describe('.dockerignore', () => {
  it('keeps local dependencies, builds, data, generated code, test output and .git out', () => {
    const entries = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim().replace(/^\/|\/$/g, ''))
      .filter((l) => l && !l.startsWith('#'))
    for (const entry of ['node_modules', '.next', 'data', 'lib/generated', 'test-results', 'playwright-report', '.git', '.env']) {
      expect(entries, entry).toContain(entry)
    }
    // Nothing the build needs is ignored.
    for (const needed of ['package.json', 'package-lock.json', 'prisma', 'scripts', 'app', 'lib', 'public']) {
      expect(entries, needed).not.toContain(needed)
    }
  })
})

describe('package.json', () => {
  const pkg = JSON.parse(read('package.json')) as { scripts?: Record<string, string> }

  it('has the start script the image runs and the worker script the worker service runs', () => {
    expect(pkg.scripts?.start).toBeTruthy()
    expect(pkg.scripts?.worker).toBeTruthy()
    expect(pkg.scripts?.build).toBeTruthy()
  })

  it('its build script generates the Prisma client before next build', () => {
    expect(pkg.scripts?.build).toMatch(/db:generate[\s\S]*next build/)
  })

  it('runs what the Dockerfile copies into the image: tsx is a runtime dependency', () => {
    const full = JSON.parse(read('package.json')) as { dependencies?: Record<string, string> }
    expect(pkg.scripts?.start).toMatch(/^node .*--import tsx /)
    expect(full.dependencies?.tsx).toBeTruthy()
  })
})
