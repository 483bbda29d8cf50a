/** What Alipay's page pay adds to the return address beside our own `order`; dropped once the outcome is shown. */
export const RETURN_PARAMS = [
  'order',
  'charset',
  'out_trade_no',
  'method',
  'total_amount',
  'sign',
  'trade_no',
  'auth_app_id',
  'version',
  'app_id',
  'sign_type',
  'seller_id',
  'timestamp',
]

/** The address a provider sends the browser back to: this page, without a previous return's parameters. */
export function currentReturnPath(): string {
  const url = new URL(window.location.href)
  RETURN_PARAMS.forEach((name) => url.searchParams.delete(name))
  return url.pathname + url.search
}
