// The category tree as every page asks for it (one cache entry: the categories page, the export filters).
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { CategoryNode } from './category-tree-model';

export const CATEGORY_TREE = ['categories', 'tree'] as const;
export type CategoryTreeData = { categories: CategoryNode[]; total: number };

export const categoryTreeQuery = {
  queryKey: CATEGORY_TREE,
  queryFn: async (): Promise<CategoryTreeData> => unwrap(await api.GET('/api/categories/tree')).data as CategoryTreeData,
};
