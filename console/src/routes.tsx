// The console's pages. Sign-in and the frame are in the first load; every page behind them is a chunk of its own,
// fetched when first visited.
import { createBrowserRouter, Navigate } from 'react-router';
import { Layout } from './components/layout';
import { SignInPage } from './features/session/sign-in-page';

const lazy = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

export const router = createBrowserRouter([
  { path: '/sign-in', Component: SignInPage },
  {
    path: '/',
    Component: Layout,
    children: [
      { index: true, element: <Navigate to="/products" replace /> },
      { path: 'products', lazy: lazy(() => import('./features/products/products-page')) },
      { path: 'products/new', lazy: lazy(() => import('./features/products/product-editor-page')) },
      { path: 'products/:id', lazy: lazy(() => import('./features/products/product-editor-page')) },
      { path: 'categories', lazy: lazy(() => import('./features/catalogue/categories-page')) },
      { path: 'attributes', lazy: lazy(() => import('./features/catalogue/attributes-page')) },
      // Under /lists: the server answers the console only under its known roots (src/server/console-static.ts).
      { path: 'lists/organization', lazy: lazy(() => import('./features/organization/organization-page')) },
      { path: 'lists/:kind', lazy: lazy(() => import('./features/catalogue/reference-lists-page')) },
      { path: 'files', lazy: lazy(() => import('./features/files/files-page')) },
      { path: 'bridge', lazy: lazy(() => import('./features/bridge/bridge-page')) },
      { path: 'bridge/:integrationId', lazy: lazy(() => import('./features/bridge/overview-page')) },
      { path: 'bridge/:integrationId/mappings', lazy: lazy(() => import('./features/bridge/mappings-page')) },
      { path: 'bridge/:integrationId/sync', lazy: lazy(() => import('./features/bridge/sync-page')) },
      { path: 'bridge/:integrationId/drift', lazy: lazy(() => import('./features/bridge/drift-page')) },
      { path: 'bridge/:integrationId/collections', lazy: lazy(() => import('./features/bridge/collections-page')) },
      { path: '*', lazy: lazy(() => import('./components/not-found')) },
    ],
  },
]);
