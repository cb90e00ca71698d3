// The signed-in organization. The key and secret go to POST /api/session once and are forgotten; the server answers
// with an HttpOnly cookie (which scripts cannot read) and a CSRF token kept here, in memory. A reload asks
// GET /api/session again.
import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { api, setCsrfToken, whenUnauthorized } from '../../api/client';
import { unwrap } from '../../api/errors';

export interface Session {
  organization: { id: number; name: string };
  expires_at: string;
}

interface SessionState {
  /** undefined while the first check runs; null when signed out. */
  session: Session | null | undefined;
  /** True when the session ended under the merchant (expired, revoked), not by signing out. */
  ended: boolean;
  signIn(apiKey: string, apiSecret: string): Promise<void>;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionState | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [ended, setEnded] = useState(false);

  const adopt = useCallback((s: { organization: Session['organization']; expires_at: string; csrf_token: string } | null) => {
    setCsrfToken(s?.csrf_token ?? null);
    setSession(s ? { organization: s.organization, expires_at: s.expires_at } : null);
  }, []);

  useEffect(() => {
    api.GET('/api/session').then(
      (answer) => {
        const state = answer.response.ok ? answer.data?.data : undefined;
        // A cookie that no longer opens anything (expired, revoked) is told apart from none.
        if (state?.ended) setEnded(true);
        adopt(state?.session ?? null);
      },
      () => adopt(null),
    );
  }, [adopt]);

  useEffect(() => {
    // A 401 ends the console's session only if the server no longer knows it.
    whenUnauthorized(() => {
      api.GET('/api/session').then((answer) => {
        if (!answer.response.ok || answer.data?.data.signed_in) return;
        setEnded(true);
        adopt(null);
        queryClient.clear();
      });
    });
    return () => whenUnauthorized(null);
  }, [adopt, queryClient]);

  const signIn = useCallback(
    async (apiKey: string, apiSecret: string) => {
      const answer = unwrap(await api.POST('/api/session', { body: { api_key: apiKey, api_secret: apiSecret } }));
      queryClient.clear();
      setEnded(false);
      adopt(answer.data);
    },
    [adopt, queryClient],
  );

  const signOut = useCallback(async () => {
    unwrap(await api.DELETE('/api/session'));
    setEnded(false);
    adopt(null);
    queryClient.clear();
  }, [adopt, queryClient]);

  const value = useMemo(() => ({ session, ended, signIn, signOut }), [session, ended, signIn, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside SessionProvider');
  return state;
}
