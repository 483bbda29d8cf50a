'use client'

import { useSyncExternalStore } from 'react'
import { getStoredToken, subscribeToken } from './token-store'

/** Dates arrive as strings over JSON. */
export type Json<T> = T extends Date ? string : T extends object ? { [K in keyof T]: Json<T[K]> } : T

/** The stored token; undefined until the page has hydrated (the server cannot know it). */
export function useToken(): string | null | undefined {
  return useSyncExternalStore(subscribeToken, getStoredToken, () => undefined)
}
