/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-3.4
 * file:      mm/hugetlb.c
 * source:    enqueue_huge_page, dequeue_huge_page_node: a 2012 linux-mm reply quoting Aneesh
 *            Kumar K.V's hugetlb activelist patch (hugepage_activelist; index file id
 *            32685909145), '-' and '+' lines; update_and_free_page: linux-mm, Wanpeng Li, 17
 *            Apr 2013, '[PATCH v2 2/6] mm/hugetlb: update_and_free_page gigantic pages
 *            awareness', Message-Id
 *            <1366158995-3116-3-git-send-email-liwanp@linux.vnet.ibm.com>, '-' and context
 *            lines without the hugetlb_cgroup line (3.6), statements checked against a
 *            comment-stripped 3.4-based vendor mm/hugetlb.c in the search index (file id
 *            1014266819); free_huge_page: a function-level extract of a 3.4..3.5
 *            free_huge_page in the search index (file id 18184946379: hugepage_subpool, no
 *            hugetlb_cgroup); prep_new_huge_page, PageHuge: a comment-stripped 3.4-based
 *            vendor mm/hugetlb.c in the search index (file id 1014266819), comment of
 *            prep_new_huge_page from a 2.6.3x mm/hugetlb.c (index file id 31758234).
 * status:    partial
 * holds:     enqueue_huge_page, dequeue_huge_page_node, update_and_free_page, free_huge_page,
 *            prep_new_huge_page, PageHuge
 * unchanged: (root variant)
 * notes:     dequeue_huge_page_node: the first four lines (declaration, '{', 'struct page
 *            *page;', blank) are outside the quoted hunk and are reconstructed. Aneesh's base
 *            was an mmotm with the hugetlb memcg series, not vanilla 3.4. free_huge_page calls
 *            update_and_free_page() with hugetlb_lock held.
 */

static void enqueue_huge_page(struct hstate *h, struct page *page)
{
	int nid = page_to_nid(page);
	list_add(&page->lru, &h->hugepage_freelists[nid]);
	h->free_huge_pages++;
	h->free_huge_pages_node[nid]++;
}

/* mmcheck: partial: first four lines reconstructed; the rest from the quoted hunk */
static struct page *dequeue_huge_page_node(struct hstate *h, int nid)
{
	struct page *page;

	if (list_empty(&h->hugepage_freelists[nid]))
		return NULL;
	page = list_entry(h->hugepage_freelists[nid].next, struct page, lru);
	list_del(&page->lru);
	set_page_refcounted(page);
	h->free_huge_pages--;
	h->free_huge_pages_node[nid]--;
	return page;
}

static void update_and_free_page(struct hstate *h, struct page *page)
{
	int i;

	VM_BUG_ON(h->order >= MAX_ORDER);

	h->nr_huge_pages--;
	h->nr_huge_pages_node[page_to_nid(page)]--;
	for (i = 0; i < pages_per_huge_page(h); i++) {
		page[i].flags &= ~(1 << PG_locked | 1 << PG_error |
				1 << PG_referenced | 1 << PG_dirty |
				1 << PG_active | 1 << PG_reserved |
				1 << PG_private | 1 << PG_writeback);
	}
	set_compound_page_dtor(page, NULL);
	set_page_refcounted(page);
	arch_release_hugepage(page);
	__free_pages(page, huge_page_order(h));
}

static void free_huge_page(struct page *page)
{
	/*
	 * Can't pass hstate in here because it is called from the
	 * compound page destructor.
	 */
	struct hstate *h = page_hstate(page);
	int nid = page_to_nid(page);
	struct hugepage_subpool *spool =
		(struct hugepage_subpool *)page_private(page);

	set_page_private(page, 0);
	page->mapping = NULL;
	BUG_ON(page_count(page));
	BUG_ON(page_mapcount(page));
	INIT_LIST_HEAD(&page->lru);

	spin_lock(&hugetlb_lock);
	if (h->surplus_huge_pages_node[nid] && huge_page_order(h) < MAX_ORDER) {
		update_and_free_page(h, page);
		h->surplus_huge_pages--;
		h->surplus_huge_pages_node[nid]--;
	} else {
		enqueue_huge_page(h, page);
	}
	spin_unlock(&hugetlb_lock);
	hugepage_subpool_put_pages(spool, 1);
}

static void prep_new_huge_page(struct hstate *h, struct page *page, int nid)
{
	set_compound_page_dtor(page, free_huge_page);
	spin_lock(&hugetlb_lock);
	h->nr_huge_pages++;
	h->nr_huge_pages_node[nid]++;
	spin_unlock(&hugetlb_lock);
	put_page(page); /* free it into the hugepage allocator */
}

int PageHuge(struct page *page)
{
	compound_page_dtor *dtor;

	if (!PageCompound(page))
		return 0;

	page = compound_head(page);
	dtor = get_compound_page_dtor(page);

	return dtor == free_huge_page;
}
