// "Connect a Shopify store" on the bridge page: the three ways in (docs/connect-a-store.md), in the merchant's words.
// Installing the app is a full navigation to the server's /shopify/install (which goes on to Shopify's consent page and
// back to the new integration); the merchant's own store (a Dev Dashboard app's client ID and secret) and a legacy
// custom app's token are POST /api/shops, which answers the integration to open.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../api/client';
import { messageOf, unwrap } from '../../api/errors';
import { Field } from '../../components/field';
import { type ConnectField, connectErrorField, installHref, storeDomain } from './connect-model';
import { bridgeKeys } from './keys';

type Way = 'install' | 'own' | 'legacy';

const WAYS: { way: Way; title: string; when: string }[] = [
  { way: 'install', title: 'Install the Pimbridge app', when: 'For any Shopify store: approve Pimbridge in Shopify and come back here.' },
  { way: 'own', title: 'Your own store (Dev Dashboard app)', when: "For a store you own, with an app you made in Shopify's Dev Dashboard." },
  { way: 'legacy', title: 'Legacy custom app token', when: 'For a custom app made in your Shopify admin before 2026.' },
];

const ADDRESS_HINT = 'Such as your-store.myshopify.com';
const NO_ADDRESS = "Type your store's address, such as your-store.myshopify.com.";

export function ConnectStore({ origin }: { origin: string }) {
  const [way, setWay] = useState<Way>('install');
  // The address typed stays when the merchant switches between the ways.
  const [address, setAddress] = useState('');
  const name = useId();
  return (
    <section className="card bridge-section bridge-connect-card" aria-labelledby="connect-h">
      <h2 id="connect-h">Connect a Shopify store</h2>
      <fieldset className="bridge-ways">
        <legend>How do you want to connect it?</legend>
        {WAYS.map((w) => (
          <div className="bridge-way" key={w.way}>
            <input
              type="radio"
              id={`${name}-${w.way}`}
              name={name}
              value={w.way}
              checked={way === w.way}
              onChange={() => setWay(w.way)}
              aria-describedby={`${name}-${w.way}-when`}
            />
            <label htmlFor={`${name}-${w.way}`}>
              <strong>{w.title}</strong>
              <span id={`${name}-${w.way}-when`} className="hint">
                {w.when}
              </span>
            </label>
          </div>
        ))}
      </fieldset>
      {way === 'install' && <InstallForm address={address} setAddress={setAddress} />}
      {way === 'own' && <OwnStoreForm address={address} setAddress={setAddress} />}
      {way === 'legacy' && <LegacyTokenForm address={address} setAddress={setAddress} />}
      <p className="hint bridge-developers">
        For developers: a shop can also be connected with <code>POST {origin}/api/connect</code> and an API key and secret of this organization.
      </p>
    </section>
  );
}

interface AddressProps {
  address: string;
  setAddress: (value: string) => void;
}

function StoreAddress({ address, setAddress, error }: AddressProps & { error?: string | null }) {
  return (
    <Field label="Store address" hint={ADDRESS_HINT} error={error}>
      <input
        name="domain"
        value={address}
        onChange={(e) => setAddress(e.target.value)}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        inputMode="url"
        required
      />
    </Field>
  );
}

function WayForm({ title, onSubmit, children, steps }: { title: string; onSubmit: (form: HTMLFormElement) => void; children: ReactNode; steps: ReactNode }) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit(event.currentTarget);
  };
  return (
    <form className="bridge-connect-form" aria-label={title} onSubmit={submit} noValidate>
      <p className="bridge-connect-steps">{steps}</p>
      {children}
    </form>
  );
}

/** Puts the focus on the field a refusal is about, so that its message (tied to it) is read out. */
const focusField = (form: HTMLFormElement | null, field: string) =>
  requestAnimationFrame(() => (form?.elements.namedItem(field) as HTMLInputElement | null)?.focus());

function InstallForm(props: AddressProps) {
  const [error, setError] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);
  // Back from Shopify's page (the browser's back/forward cache keeps this page as it was left): the button again.
  useEffect(() => {
    const back = (event: PageTransitionEvent) => event.persisted && setLeaving(false);
    window.addEventListener('pageshow', back);
    return () => window.removeEventListener('pageshow', back);
  }, []);
  return (
    <WayForm
      title="Install the Pimbridge app"
      steps={
        <>
          Type your store's address and press <strong>Install</strong>. Shopify shows what Pimbridge may do in your store; press <strong>Install</strong> there
          too, and you come back here with the store connected.
        </>
      }
      onSubmit={(form) => {
        const domain = storeDomain(props.address);
        if (!domain) {
          setError(NO_ADDRESS);
          focusField(form, 'domain');
          return;
        }
        setError(null);
        setLeaving(true);
        // A server page (it redirects to the store's consent page): a full navigation, not the console's router.
        window.location.assign(installHref(domain));
      }}
    >
      <StoreAddress {...props} error={error} />
      <button type="submit" className="button primary" disabled={leaving}>
        {leaving ? 'Opening Shopify…' : 'Install'}
      </button>
    </WayForm>
  );
}

type ShopsBody = { domain: string; client_id?: string; client_secret?: string; access_token?: string };

/** POST /api/shops; on success the new integration's page, with the integrations list read again. */
function useConnectShop() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async (body: ShopsBody) => unwrap(await api.POST('/api/shops', { body })).data,
    onSuccess: async (data) => {
      await queryClient.invalidateQueries({ queryKey: bridgeKeys.integrations() });
      navigate(`/bridge/${data.integration_id}?connected=1`);
    },
  });
}

/** The refusal split between the field it names and the form. */
function refusalOf(error: unknown, way: 'own' | 'legacy') {
  if (!error) return { field: null as ConnectField | null, text: null as string | null };
  const text = messageOf(error);
  return { field: connectErrorField(text, way), text };
}

/**
 * One POST /api/shops form: the empty required fields are marked and the first focused; otherwise the body is sent, and
 * a refusal shows under the field it is about, which takes the focus.
 */
function useShopsForm(way: 'own' | 'legacy') {
  const connect = useConnectShop();
  const formRef = useRef<HTMLFormElement | null>(null);
  const [missing, setMissing] = useState<Partial<Record<ConnectField, string>>>({});
  const refusal = refusalOf(connect.error, way);
  const errorOf = (field: ConnectField) => missing[field] ?? (refusal.field === field ? refusal.text : null);
  const submit = (form: HTMLFormElement, body: ShopsBody, empty: Partial<Record<ConnectField, string>>) => {
    formRef.current = form;
    setMissing(empty);
    const first = Object.keys(empty)[0];
    if (first) {
      connect.reset();
      focusField(form, first);
      return;
    }
    connect.mutate(body, {
      onError: (err) => {
        const field = connectErrorField(messageOf(err), way);
        if (field) focusField(formRef.current, field);
      },
    });
  };
  return { connect, refusal, errorOf, submit };
}

function OwnStoreForm(props: AddressProps) {
  const { connect, refusal, errorOf, submit } = useShopsForm('own');
  return (
    <WayForm
      title="Your own store (Dev Dashboard app)"
      steps={
        <>
          In Shopify's Dev Dashboard, open your app → <strong>Settings</strong> and copy the <strong>Client ID</strong> and the <strong>Secret</strong>. The app
          must be installed on your store, with access to products, inventory, locations, sales channels, translations and languages.
        </>
      }
      onSubmit={(form) => {
        const data = new FormData(form);
        const body = {
          domain: storeDomain(props.address),
          client_id: String(data.get('client_id') ?? '').trim(),
          client_secret: String(data.get('client_secret') ?? '').trim(),
        };
        const empty: Partial<Record<ConnectField, string>> = {};
        if (!body.domain) empty.domain = NO_ADDRESS;
        if (!body.client_id) empty.client_id = "Paste the app's Client ID.";
        if (!body.client_secret) empty.client_secret = "Paste the app's secret.";
        submit(form, body, empty);
      }}
    >
      <StoreAddress {...props} error={errorOf('domain')} />
      <Field label="Client ID" error={errorOf('client_id')}>
        <input name="client_id" autoComplete="off" spellCheck={false} required />
      </Field>
      <Field label="Client secret" error={errorOf('client_secret')}>
        <input name="client_secret" type="password" autoComplete="off" spellCheck={false} required />
      </Field>
      <FormRefusal text={refusal.field ? null : refusal.text} />
      <button type="submit" className="button primary" disabled={connect.isPending}>
        {connect.isPending ? 'Connecting…' : 'Connect store'}
      </button>
    </WayForm>
  );
}

function LegacyTokenForm(props: AddressProps) {
  const { connect, refusal, errorOf, submit } = useShopsForm('legacy');
  return (
    <WayForm
      title="Legacy custom app token"
      steps={
        <>
          In your Shopify admin, open <strong>Settings → Apps and sales channels → Develop apps</strong>, choose the app, and copy the{' '}
          <strong>Admin API access token</strong> from <strong>API credentials</strong> (it starts with <code>shpat_</code>).
        </>
      }
      onSubmit={(form) => {
        const body = { domain: storeDomain(props.address), access_token: String(new FormData(form).get('access_token') ?? '').trim() };
        const empty: Partial<Record<ConnectField, string>> = {};
        if (!body.domain) empty.domain = NO_ADDRESS;
        if (!body.access_token) empty.access_token = 'Paste the Admin API access token.';
        submit(form, body, empty);
      }}
    >
      <StoreAddress {...props} error={errorOf('domain')} />
      <Field label="Access token" error={errorOf('access_token')}>
        <input name="access_token" type="password" autoComplete="off" spellCheck={false} required />
      </Field>
      <FormRefusal text={refusal.field ? null : refusal.text} />
      <button type="submit" className="button primary" disabled={connect.isPending}>
        {connect.isPending ? 'Connecting…' : 'Connect store'}
      </button>
    </WayForm>
  );
}

function FormRefusal({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p role="alert" className="banner error">
      {text}
    </p>
  );
}
