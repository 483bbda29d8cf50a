'use client'

import { useMutation } from '@tanstack/react-query'
import { useRef } from 'react'
import type { UploadView } from '@/lib/uploads/create-upload'
import { api } from '../request'

export const uploadUrls = { uploads: '/api/uploads' } as const

/** A stored upload (checked and re-encoded by the server), referenced by id in task params. */
export type Uploaded = UploadView

/** Uploads one picture (≤10MB) for a task. */
export function useUploadImage() {
  return useMutation({ mutationFn: (file: Blob) => api.upload<Uploaded>(uploadUrls.uploads, file) })
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i])

/**
 * Uploads a picture the page made (a painted mask), once for the same bytes: pressed again
 * after a lost answer, the request is the one sent before, so its Idempotency-Key finds the
 * task already made instead of charging for another.
 */
export function useUploadPainted() {
  const upload = useUploadImage()
  const last = useRef<{ bytes: Uint8Array; uploaded: Uploaded } | null>(null)
  return {
    async send(file: Blob): Promise<Uploaded> {
      const bytes = new Uint8Array(await file.arrayBuffer())
      if (last.current && sameBytes(last.current.bytes, bytes)) return last.current.uploaded
      const uploaded = await upload.mutateAsync(file)
      last.current = { bytes, uploaded }
      return uploaded
    },
  }
}
