import { open, readFile, rm } from 'node:fs/promises'

/**
 * One process at a time may open the embedded database's files: a second `npm start` on
 * the same DATA_DIR would otherwise run a second PostgreSQL on them and corrupt them.
 * The lock is a file holding the owner's pid; a lock whose process is gone is taken over.
 */
export async function lockDataDir(lockFile: string): Promise<() => Promise<void>> {
  for (let tries = 0; tries < 2; tries++) {
    try {
      const handle = await open(lockFile, 'wx')
      await handle.writeFile(String(process.pid))
      await handle.close()
      return () => rm(lockFile, { force: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const owner = Number((await readFile(lockFile, 'utf8').catch(() => '')).trim())
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new Error(
          `the embedded database in ${lockFile.replace(/\.lock$/, '')} is in use by process ${owner}; stop it first, or delete the lock file if that process is not this site`,
        )
      }
      await rm(lockFile, { force: true })
    }
  }
  throw new Error(`could not lock ${lockFile}`)
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
