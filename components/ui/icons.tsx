import type { SVGProps } from 'react'

/** Line icons drawn inline (no icon font, no emoji font needed). */
type IconProps = SVGProps<SVGSVGElement>
const base = {
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.8,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  'aria-hidden': true,
} as const

export const KeyIcon = (p: IconProps) => (
  <svg {...base} {...p}>
    <circle cx="8" cy="15" r="4" />
    <path d="M10.8 12.2 20 3m-4 4 3 3m-5-1 2 2" />
  </svg>
)
export const ChatIcon = (p: IconProps) => (
  <svg {...base} {...p}>
    <path d="M8.5 14.5c-3.6 0-6.5-2.4-6.5-5.3S4.9 4 8.5 4 15 6.3 15 9.2" />
    <path d="M5 13.6 4 16.5l3-1.6" />
    <path d="M15.5 10c3.6 0 6.5 2.2 6.5 4.9 0 1.6-1 3-2.5 3.9l.5 2.2-2.6-1.4c-.6.1-1.2.2-1.9.2-3.6 0-6.5-2.2-6.5-4.9S11.9 10 15.5 10Z" />
  </svg>
)
export const PhoneIcon = (p: IconProps) => (
  <svg {...base} {...p}>
    <rect x="6" y="2.5" width="12" height="19" rx="2.5" />
    <path d="M11 18.5h2" />
  </svg>
)
