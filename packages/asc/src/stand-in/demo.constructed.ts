/**
 * CONSTRUCTED demo of the App Store Connect stand-in (offline demo, never Apple's): an invented
 * team with one API key and two invented apps. The key pair was generated for this demo only and
 * is accepted by the stand-in alone, so it is no secret; it lets a newcomer connect in one click.
 */
import type { TStandInApp, TStandInKey } from './stand-in.server';

/** The demo key's issuer id and key id. */
export const DEMO_ASC_KEY = {
  name: 'Demo team (offline)',
  issuerId: '6a1b7c3e-0d2f-4e5a-9b8c-7d6e5f4a3b2c',
  keyId: 'DEMO2K7Q9X',
  role: 'ADMIN',
} as const;

/** The demo key's private half (PKCS#8 PEM), for the one-click demo connection. */
export const DEMO_ASC_PRIVATE_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgrx44UHJ5DtmI0eI7
TEbeVPNEi7SeiYzcI0HkEK4PNCyhRANCAAQONk+MEXEPQktxZnSrKcjDYF4EYOkC
jvARp7FN/gFOULEvG0ePIQktmcONx+qaqnw9o9MIuALabcSUvCzD+xjl
-----END PRIVATE KEY-----`;

const DEMO_ASC_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEDjZPjBFxD0JLcWZ0qynIw2BeBGDp
Ao7wEaexTf4BTlCxLxtHjyEJLZnDjcfqmqp8PaPTCLgC2m3ElLwsw/sY5Q==
-----END PUBLIC KEY-----`;

/** The stand-in's view of the demo key. */
export const DEMO_STAND_IN_KEY: TStandInKey = {
  issuerId: DEMO_ASC_KEY.issuerId,
  keyId: DEMO_ASC_KEY.keyId,
  publicKey: DEMO_ASC_PUBLIC_KEY,
  role: DEMO_ASC_KEY.role,
};

/**
 * The demo team's invented apps. Calm Notes has the Apple id of the replay server's constructed
 * listing of the same app (packages/appstore/test/recordings), so the offline demo links its
 * imported figures to that listing once it is watched.
 */
export const DEMO_ASC_APPS: TStandInApp[] = [
  { id: '6450000001', name: 'Calm Notes', bundleId: 'com.example.calmnotes' },
  { id: '1600000002', name: 'Trail Log', bundleId: 'com.example.traillog' },
];
