/** Passwords that appear at the top of every leaked-password list; refused outright. */
export const COMMON_PASSWORDS = new Set([
  '12345678',
  '123456789',
  '1234567890',
  '11111111',
  '88888888',
  '66666666',
  '00000000',
  '12341234',
  '87654321',
  '11223344',
  '147258369',
  '123123123',
  'a12345678',
  'aa123456',
  'abc12345',
  'abcd1234',
  'qwertyui',
  'qwerty123',
  '1qaz2wsx',
  'asdfghjk',
  'iloveyou',
  'password',
  'password1',
  'passw0rd',
  'p@ssw0rd',
  'admin123',
  'admin888',
  'woaini1314',
  '5201314520',
  'zxcvbnm123',
  'qq123456',
  'asd123456',
  'a123456789',
  '123456abc',
])

export function isTooCommon(password: string, username: string): boolean {
  const lower = password.toLowerCase()
  return COMMON_PASSWORDS.has(lower) || lower === username.toLowerCase() || /^(.)\1+$/.test(password)
}
