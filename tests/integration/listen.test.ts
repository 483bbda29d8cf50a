// The LISTEN connection (lib/signals/listen.ts): stopping it while it is still connecting keeps
// nothing open, and nobody is told it listens.
import pg from 'pg'
import { afterEach, expect, inject, it, vi } from 'vitest'
import { listenOnChannel } from '@/lib/signals/listen'
import { until } from '../helpers/until'

afterEach(() => vi.restoreAllMocks())

it('a stop during the connect ends that connection and never reports it listening', async () => {
  const ended: pg.Client[] = []
  const connected: pg.Client[] = []
  const connect: (this: pg.Client) => Promise<pg.Client> = pg.Client.prototype.connect
  vi.spyOn(pg.Client.prototype, 'connect').mockImplementation(function (this: pg.Client) {
    connected.push(this)
    return connect.call(this)
  })
  const end: (this: pg.Client) => Promise<void> = pg.Client.prototype.end
  vi.spyOn(pg.Client.prototype, 'end').mockImplementation(function (this: pg.Client) {
    ended.push(this)
    return end.call(this)
  })
  let listening = false

  const stop = listenOnChannel(
    inject('databaseUrl'),
    'aiimg_listen_stop_early',
    () => {},
    () => {},
    () => (listening = true),
  )
  await stop()
  // Whatever the connect was going to do has happened once it is ended or reported listening.
  await until(() => listening || (connected.length === 1 && ended.includes(connected[0]!)))
  expect(listening).toBe(false)
  expect(connected).toHaveLength(1)
  expect(ended).toContain(connected[0])
})

it('a stop after the connect ends the listening connection', async () => {
  const elsewhere = new pg.Client({ connectionString: inject('databaseUrl') })
  await elsewhere.connect()
  try {
    let listening = false
    const heard: string[] = []
    const stop = listenOnChannel(
      inject('databaseUrl'),
      'aiimg_listen_stop_test',
      (p) => heard.push(p),
      () => {},
      () => (listening = true),
    )
    await until(() => listening)
    await elsewhere.query(`NOTIFY aiimg_listen_stop_test, 'one'`)
    await until(() => heard.length === 1)
    await stop()
    const listeners = () => elsewhere.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = 'LISTEN aiimg_listen_stop_test'`)
    await until(async () => (await listeners()).rows[0].n === 0)
  } finally {
    await elsewhere.end()
  }
})
