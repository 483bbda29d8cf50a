import { describe, expect, it } from 'vitest'
import { allowedAddresses, isMetadataAddress, MetadataAddressError, type Resolver } from '@/lib/net/metadata-address'

describe('isMetadataAddress', () => {
  it.each([
    '169.254.169.254',
    '169.254.0.1',
    '169.254.170.2',
    '169.254.0.23',
    '100.100.100.200',
    'fd00:ec2::254',
    'FD00:EC2:0:0:0:0:0:254',
    '[fd00:ec2::254]',
    'fe80::1',
    'fe80::1%eth0',
    'febf::1',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '[::ffff:a9fe:a9fe]',
    '::ffff:100.100.100.200',
    '::ffff:6464:64c8',
    '::169.254.169.254',
    '::ffff:0:169.254.169.254',
    '64:ff9b::169.254.169.254',
    '64:ff9b::a9fe:a9fe',
  ])('refuses %s', (address) => expect(isMetadataAddress(address)).toBe(true))

  // Loopback and private addresses are an operator's LAN backends: allowed.
  it.each([
    '127.0.0.1',
    '10.0.0.5',
    '192.168.1.20',
    '172.16.0.1',
    '100.100.100.201',
    '100.64.0.1',
    '169.253.255.255',
    '169.255.0.1',
    '8.8.8.8',
    '::1',
    '::',
    'fd00:ec2::253',
    'fd00::1',
    'fec0::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '2606:4700:4700::1111',
    'not-an-ip',
    '',
  ])('allows %s', (address) => expect(isMetadataAddress(address)).toBe(false))
})

describe('allowedAddresses', () => {
  const resolver =
    (answers: Record<string, string[]>): Resolver =>
    async (host) =>
      (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))

  it('refuses a name when any address it resolves to is a metadata address', async () => {
    const resolve = resolver({ 'meta.example': ['169.254.169.254'], 'mixed.example': ['192.168.1.5', 'fd00:ec2::254'], 'lan.example': ['192.168.1.5', '::1'] })
    await expect(allowedAddresses('meta.example', resolve)).rejects.toBeInstanceOf(MetadataAddressError)
    await expect(allowedAddresses('mixed.example', resolve)).rejects.toThrow(/元数据地址/)
    expect(await allowedAddresses('lan.example', resolve)).toEqual([
      { address: '192.168.1.5', family: 4 },
      { address: '::1', family: 6 },
    ])
  })

  it('checks IP literals (bracketed IPv6 too) without asking the resolver', async () => {
    const resolve: Resolver = async () => {
      throw new Error('no lookup expected')
    }
    await expect(allowedAddresses('100.100.100.200', resolve)).rejects.toBeInstanceOf(MetadataAddressError)
    await expect(allowedAddresses('[::ffff:a9fe:a9fe]', resolve)).rejects.toBeInstanceOf(MetadataAddressError)
    expect(await allowedAddresses('[::1]', resolve)).toEqual([{ address: '::1', family: 6 }])
    expect(await allowedAddresses('127.0.0.1', resolve)).toEqual([{ address: '127.0.0.1', family: 4 }])
  })
})
