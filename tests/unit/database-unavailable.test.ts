// The database out of reach → 503 数据库暂时不可用 (docs/PRODUCT.md §7.1): the errors Prisma, its
// pg adapter and pg raise when the database refuses, drops or never answers, some produced for
// real against a closed port and a silent one, and the errors that must keep their own answer.
import net from 'node:net'
import { PrismaPg } from '@prisma/adapter-pg'
import { PrismaClientKnownRequestError } from '@prisma/client/runtime/client'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createPool } from '@/lib/db'
import { PrismaClient } from '@/lib/generated/prisma/client'
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '@/lib/http/database-unavailable'
import { errorToResponse } from '@/lib/http/envelope'

const known = (code: string, message: string, meta?: Record<string, unknown>) => new PrismaClientKnownRequestError(message, { code, clientVersion: '7', meta })
const adapterMeta = (cause: Record<string, unknown>) => ({ driverAdapterError: { name: 'DriverAdapterError', cause } })
const withCode = (message: string, code: string) => Object.assign(new Error(message), { code })

describe('isDatabaseUnavailable', () => {
  it.each([
    ['P1001 cannot reach', known('P1001', "Can't reach database server at 127.0.0.1:5432", adapterMeta({ kind: 'DatabaseNotReachable' }))],
    ['P1017 connection closed', known('P1017', 'Server has closed the connection.', adapterMeta({ kind: 'ConnectionClosed' }))],
    ['P1008 timed out', known('P1008', 'Operation has timed out', adapterMeta({ kind: 'SocketTimeout' }))],
    ['P2024 no pooled connection in time', known('P2024', 'Timed out fetching a new connection from the connection pool.')],
    ['P2010 raw query, connection closed', known('P2010', 'Raw query failed. Code: `N/A`.', adapterMeta({ kind: 'ConnectionClosed' }))],
    ['P2010 raw query, server shutting down', known('P2010', 'Raw query failed.', adapterMeta({ kind: 'postgres', code: '57P01' }))],
    ['an adapter error, too many connections', known('P2037', 'Too many database connections opened', adapterMeta({ kind: 'TooManyConnections' }))],
    ['SQLSTATE 57P03 (starting up)', withCode('the database system is starting up', '57P03')],
    ['SQLSTATE 08006 (connection failure)', withCode('connection failure', '08006')],
    ['pg: connection terminated', new Error('Connection terminated unexpectedly')],
    ['pg: connect timeout', new Error('timeout expired')],
    ['pg-pool: no connection in time', new Error('timeout exceeded when trying to connect')],
    ['pg: no answer in time', new Error('Query read timeout')],
    ['pg: broken client reused', new Error('Client has encountered a connection error and is not queryable')],
    ['wrapped in a cause', new Error('settling failed', { cause: new Error('Connection terminated due to connection timeout') })],
  ])('%s → yes', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true)
  })

  it.each([
    ['P2002 unique', known('P2002', 'Unique constraint failed', adapterMeta({ kind: 'UniqueConstraintViolation' }))],
    ['P2025 not found', known('P2025', 'Record to update not found.')],
    ['P2028 transaction API (overload)', known('P2028', 'Unable to start a transaction in the given time.')],
    ['P2010 raw query, syntax error', known('P2010', 'Raw query failed.', adapterMeta({ kind: 'postgres', code: '42601' }))],
    ['SQLSTATE 23514 (check)', withCode('new row violates check constraint', '23514')],
    ['a generation backend refused (fetch)', new TypeError('fetch failed', { cause: withCode('connect ECONNREFUSED 127.0.0.1:7860', 'ECONNREFUSED') })],
    ['a plain error', new Error('boom')],
    ['a timeout of something else', new Error('timeout of 3000ms exceeded')],
    ['a string', 'Connection terminated unexpectedly'],
    ['null', null],
  ])('%s → no', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false)
  })

  it('does not loop on a cause that points back at itself', () => {
    const error = new Error('outer') as Error & { cause?: unknown }
    error.cause = error
    expect(isDatabaseUnavailable(error)).toBe(false)
  })
})

describe('errorToResponse, the database out of reach', () => {
  it('→ 503 in the envelope with the Chinese message, one log line without the stack', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    const res = errorToResponse(known('P1001', "\nInvalid `prisma.user.count()` invocation:\n\nCan't reach database server at 127.0.0.1:5432"))
    expect(res.status).toBe(503)
    expect(await res.json()).toEqual({ success: false, data: null, errMessage: DATABASE_UNAVAILABLE_MESSAGE, code: 'SERVICE_UNAVAILABLE' })
    expect(log).toHaveBeenCalledWith("[api] database unavailable: P1001 Can't reach database server at 127.0.0.1:5432")
    log.mockRestore()
  })
})

describe('real failures', () => {
  // A port that accepts connections and never says a word: a database behind a black hole.
  let silent: net.Server
  const held = new Set<net.Socket>()
  let silentPort = 0
  let closedPort = 0
  beforeAll(async () => {
    silent = net.createServer((socket) => void held.add(socket.on('error', () => undefined)))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    silentPort = (silent.address() as net.AddressInfo).port
    const probe = net.createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
    closedPort = (probe.address() as net.AddressInfo).port
    await new Promise<void>((resolve) => probe.close(() => resolve()))
  })
  afterAll(async () => {
    for (const socket of held) socket.destroy()
    await new Promise<void>((resolve) => silent.close(() => resolve()))
  })

  it('Prisma on a refused port: P1001, unavailable', async () => {
    const pool = new pg.Pool({ connectionString: `postgresql://nobody@127.0.0.1:${closedPort}/none` })
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) })
    const error = await prisma.user.count().catch((e: unknown) => e)
    await pool.end()
    expect(error).toMatchObject({ code: 'P1001' })
    expect(isDatabaseUnavailable(error)).toBe(true)
  })

  it('a pooled connection to a silent server gives up after its connect timeout, not the pool wait: unavailable', async () => {
    const pool = createPool(`postgresql://nobody@127.0.0.1:${silentPort}/none`, 1, { connectMs: 1_000, poolWaitMs: 60_000, statementMs: 60_000 })
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) })
    const started = Date.now()
    const error = await prisma.user.count().catch((e: unknown) => e)
    const waited = Date.now() - started
    await pool.end()
    expect(isDatabaseUnavailable(error)).toBe(true)
    expect(waited).toBeLessThan(30_000)
  }, 40_000)
})
