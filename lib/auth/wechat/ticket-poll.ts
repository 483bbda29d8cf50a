/**
 * The header the desktop's poll of its QR login ticket sends the ticket's poll key in
 * (lib/auth/wechat/login-ticket.ts). Shared by the server and the page.
 */
export const TICKET_POLL_KEY_HEADER = 'x-ticket-key'
