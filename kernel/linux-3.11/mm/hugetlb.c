/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-3.11
 * file:      mm/hugetlb.c
 * source:    enqueue_huge_page: a 2012 linux-mm reply quoting Aneesh Kumar K.V's hugetlb
 *            activelist patch (hugepage_activelist; index file id 32685909145), '-' and '+'
 *            lines ('+' side, list_move); update_and_free_page: linux-mm, Wanpeng Li, 17 Apr
 *            2013, '[PATCH v2 2/6] mm/hugetlb: update_and_free_page gigantic pages awareness',
 *            Message-Id <1366158995-3116-3-git-send-email-liwanp@linux.vnet.ibm.com>, '-' and
 *            context lines; free_huge_page: linux-mm, Joonsoo Kim, 2013 (3.11-era base,
 *            mm/hugetlb.c index 6c8eec2..3f834f1, hunk '@@ -626,15 +627,20 @@ static void
 *            free_huge_page'; index file id 46770333409), context lines up to list_del(), the
 *            leading lines from a function-level extract of a 3.4..3.5 free_huge_page in the
 *            search index (file id 18184946379: hugepage_subpool, no hugetlb_cgroup) and the
 *            tail from a 3.12..3.15-era mm/hugetlb.c in the search index (file id 8324603:
 *            restore_reserve, no MAX_ORDER test); prep_new_huge_page: a 3.12..3.15-era
 *            mm/hugetlb.c in the search index (file id 8324603: restore_reserve, no MAX_ORDER
 *            test) (same lines as the '+' side of the 2012 hugetlb_cgroup posting, index file
 *            id 35087818105).
 *            dequeue_huge_page_node: linux-mm, Naoya Horiguchi, 18 Jul 2013, '[PATCH 7/8]
 *            memory-hotplug: enable memory hotplug to handle hugepage', Message-Id
 *            <1374183272-10153-8-git-send-email-n-horiguchi@ah.jp.nec.com> (diff against
 *            v3.11-rc1: mm/hugetlb.c index fab29a1..9575e8a, hunk '@@ -518,9 +519,11 @@ static
 *            struct page *dequeue_huge_page_node(struct hstate *h, int nid)'; index file id
 *            13033115100), context and '-' lines; the last three lines (free_huge_pages_node,
 *            return, '}') from linux-3.4 (outside the hunk).
 * status:    partial
 * holds:     enqueue_huge_page, dequeue_huge_page_node, update_and_free_page, free_huge_page,
 *            prep_new_huge_page
 * unchanged: PageHuge (linux-3.4)
 * notes:     free_huge_page calls update_and_free_page() with hugetlb_lock held (verified in
 *            the 3.4 extract, in Joonsoo's 3.11-era context up to list_del() and in the 3.12+
 *            copies; the unlock-before-update_and_free_page form is much later).
 *            arch_clear_hugepage_flags() is taken from the 3.12+ copy: not verified for 3.10
 *            or 3.11. dequeue_huge_page_node (added by the compound fidelity helper): the
 *            3.11-rc1 text; 3.6's activelist moves the page to h->hugepage_activelist
 *            (list_move) where 3.4 had list_del, and set_page_refcounted() stays under
 *            hugetlb_lock. Not held (no 3.10/3.11 text found): alloc_huge_page,
 *            set_max_huge_pages, free_pool_huge_page ('Called with hugetlb_lock locked' per
 *            its comment; it calls update_and_free_page()), alloc_fresh_huge_page_node.
 */

static void enqueue_huge_page(struct hstate *h, struct page *page)
{
	int nid = page_to_nid(page);
	list_move(&page->lru, &h->hugepage_freelists[nid]);
	h->free_huge_pages++;
	h->free_huge_pages_node[nid]++;
}

/* mmcheck: partial: 3.11-rc1 hunk context; the last three lines are linux-3.4's */
static struct page *dequeue_huge_page_node(struct hstate *h, int nid)
{
	struct page *page;

	if (list_empty(&h->hugepage_freelists[nid]))
		return NULL;
	page = list_entry(h->hugepage_freelists[nid].next, struct page, lru);
	list_move(&page->lru, &h->hugepage_activelist);
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
	VM_BUG_ON(hugetlb_cgroup_from_page(page));
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

	spin_lock(&hugetlb_lock);
	hugetlb_cgroup_uncharge_page(hstate_index(h),
				     pages_per_huge_page(h), page);
	if (h->surplus_huge_pages_node[nid] && huge_page_order(h) < MAX_ORDER) {
		/* remove the page from active list */
		list_del(&page->lru);
		update_and_free_page(h, page);
		h->surplus_huge_pages--;
		h->surplus_huge_pages_node[nid]--;
	} else {
		arch_clear_hugepage_flags(page);
		enqueue_huge_page(h, page);
	}
	spin_unlock(&hugetlb_lock);
	hugepage_subpool_put_pages(spool, 1);
}

static void prep_new_huge_page(struct hstate *h, struct page *page, int nid)
{
	INIT_LIST_HEAD(&page->lru);
	set_compound_page_dtor(page, free_huge_page);
	spin_lock(&hugetlb_lock);
	set_hugetlb_cgroup(page, NULL);
	h->nr_huge_pages++;
	h->nr_huge_pages_node[nid]++;
	spin_unlock(&hugetlb_lock);
	put_page(page); /* free it into the hugepage allocator */
}
