'use client'

import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query'

/** A write through useMutation that, once it succeeds, invalidates the given key prefixes (each resource's `xKeys.all` or a part of it). */
export function useWrite<Input, Output>(send: (input: Input) => Promise<Output>, invalidates: readonly QueryKey[]) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: send,
    onSuccess: () => Promise.all(invalidates.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  })
}
