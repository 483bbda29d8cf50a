'use client'

import { useMutation } from '@tanstack/react-query'
import type { UploadView } from '@/lib/uploads/create-upload'
import { api } from '../request'

export const uploadUrls = { uploads: '/api/uploads' } as const

/** A stored upload (checked and re-encoded by the server), referenced by id in task params. */
export type Uploaded = UploadView

/** Uploads one picture (≤10MB) for a task. */
export function useUploadImage() {
  return useMutation({ mutationFn: (file: Blob) => api.upload<Uploaded>(uploadUrls.uploads, file) })
}
