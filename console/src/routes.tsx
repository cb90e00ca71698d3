// The console's pages. Sign-in and the frame are in the first load; every page behind them is a chunk of its own,
// fetched when first visited.
import { createBrowserRouter, Navigate } from 'react-router';
import { Layout } from './components/layout';
import { SignInPage } from './pages/sign-in';

const lazy = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

export const router = createBrowserRouter([
  { path: '/sign-in', Component: SignInPage },
  {
    path: '/',
    Component: Layout,
    children: [
      { index: true, element: <Navigate to="/products" replace /> },
      { path: 'products', lazy: lazy(() => import('./pages/products')) },
      { path: 'products/new', lazy: lazy(() => import('./pages/product-editor')) },
      { path: 'products/:id', lazy: lazy(() => import('./pages/product-editor')) },
      { path: 'categories', lazy: lazy(() => import('./pages/categories')) },
      { path: 'attributes', lazy: lazy(() => import('./pages/attributes')) },
      // Under /lists: the server answers the console only under its known roots (src/server/console-static.ts).
      { path: 'lists/organization', lazy: lazy(() => import('./pages/organization')) },
      { path: 'lists/:kind', lazy: lazy(() => import('./pages/reference-lists')) },
      { path: 'files', lazy: lazy(() => import('./pages/files')) },
      { path: 'bridge', lazy: lazy(() => import('./pages/bridge')) },
      { path: 'bridge/:integrationId', lazy: lazy(() => import('./pages/bridge-overview')) },
      { path: 'bridge/:integrationId/mappings', lazy: lazy(() => import('./pages/bridge-mappings')) },
      { path: 'bridge/:integrationId/sync', lazy: lazy(() => import('./pages/bridge-sync')) },
      { path: 'bridge/:integrationId/drift', lazy: lazy(() => import('./pages/bridge-drift')) },
      { path: 'bridge/:integrationId/collections', lazy: lazy(() => import('./pages/bridge-collections')) },
      { path: '*', lazy: lazy(() => import('./pages/not-found')) },
    ],
  },
]);
