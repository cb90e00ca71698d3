// The signed-in organization and its catalogue defaults (GET, PATCH /api/organization), under organizationKeys.all:
// the organization page changes it; a new product's currency and the import form's hint read it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { completenessKeys } from '../completeness/keys';
import { organizationKeys } from './keys';

export const useOrganization = () =>
  useQuery({
    queryKey: organizationKeys.all,
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/organization', { signal })).data,
    staleTime: 60_000,
  });

export type Organization = NonNullable<ReturnType<typeof useOrganization>['data']>;

/**
 * PATCH the default currency (null: not set); the answer, the organization as stored, replaces the cached one.
 * `onSaved` runs first: the page's form is keyed by the stored currency and starts again when the cache changes.
 */
export function useSaveDefaultCurrency({ onSaved, onFailed }: { onSaved: (saved: Organization) => void; onFailed: (err: unknown) => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (code: string | null) => unwrap(await api.PATCH('/api/organization', { body: { default_currency: code } })).data,
    onSuccess: (saved) => {
      onSaved(saved);
      queryClient.setQueryData(organizationKeys.all, saved);
    },
    onError: onFailed,
  });
}

/** PATCH the catalogue's languages; every product's completeness counts them, so it is read again. */
export function useSaveLanguages({ onSaved }: { onSaved: (saved: Organization) => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (languages: string[]) => unwrap(await api.PATCH('/api/organization', { body: { languages } })).data,
    onSuccess: (saved) => {
      onSaved(saved);
      queryClient.setQueryData(organizationKeys.all, saved);
      void queryClient.invalidateQueries({ queryKey: completenessKeys.all });
    },
  });
}
