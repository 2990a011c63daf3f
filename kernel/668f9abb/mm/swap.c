/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   668f9abb
 * file:      mm/swap.c
 * source:    put_compound_page: context and '-' lines of linux-mm, Jianyu Zhan, 29 Apr
 *            2014, '[PATCH 2/3] mm/swap.c: split put_compound_page function',
 *            Message-Id
 *            <1fc028045336844fe9ba9ee27c406e6ebe4726f4.1398764420.git.nasa4836@gmail.com>,
 *            the lines between its two hunks from the '+' lines of linux-mm, 20 Nov
 *            2013, '[PATCH 7/8] mm/swap.c: reorganize put_compound_page()' (From:
 *            Andrew Morton), Message-Id
 *            <1384969876-6374-8-git-send-email-aarcange@redhat.com>; __get_page_tail:
 *            '-' lines of linux-mm, Kirill A. Shutemov, 12 Feb 2015, '[PATCHv3 12/24]
 *            thp: PMD splitting without splitting compound page', Message-Id
 *            <1423757918-197669-13-git-send-email-kirill.shutemov@linux.intel.com>;
 *            compound_trans_head -> compound_head per linux-mm, David Rientjes, 12 Feb
 *            2014, '[patch -mm] mm: close PageTail race', Message-ID
 *            <alpine.DEB.2.02.1402120058370.31209@chino.kir.corp.google.com> (archive
 *            sjp38/lore-linux-mm, file m)
 * status:    partial
 * holds:     put_compound_page, __get_page_tail
 * unchanged: __put_compound_page, put_page (3.13 text)
 * notes:     Texts as they stood in Apr 2014 (3.15-rc, put_compound_page) and Feb 2015
 *            (__get_page_tail), assumed unchanged since 3.14-rc6; they agree line by
 *            line with the 3.14 series postings plus Sasha's VM_BUG_ON_PAGE hunks and
 *            668f9abb's two compound_trans_head -> compound_head hunks. Comment reads
 *            'treat' (7/8 as posted: 'threat'). Between 44518d2b and 668f9abb mainline
 *            also applied (mmotm order; commit ids NOT verified): 'mm: hugetlbfs: use
 *            __compound_tail_refcounted in __get_page_tail too' (Andrea),
 *            'mm/hugetlb.c: simplify PageHeadHuge() and PageHuge()' (akpm), 'mm/swap.c:
 *            reorganize put_compound_page()' (akpm), 'mm/hugetlb.c: defer
 *            PageHeadHuge() symbol export' (Andrea), 'mm: thp: __get_page_tail_foll()
 *            can use get_huge_page_tail()' and 'mm: thp: turn compound_head() into
 *            BUG_ON(!PageTail) in get_huge_page_tail()' (Oleg Nesterov), and Sasha
 *            Levin's VM_BUG_ON -> VM_BUG_ON_PAGE conversion: having no folders of their
 *            own, their changes are held here (this folder is the 3.14 text of every
 *            function it holds). parent: 44518d2b.
 *            Update (6 Dec 2026, superseding the above where it differs): the commits named
 *            above have verified mainline ids, read on their commit pages
 *            (git.zx2c4.com/linux-dev): 3bfcd13ec0b4, 758f66a29ccc, 26296ad2dfb4, c728852f5dd4,
 *            5eaf1a9e233d and 309381feaee5 (the PageHeadHuge export commit's id is UNVERIFIED);
 *            each but 758f66a2, the export commit and 309381fe has a folder and a variant of
 *            its own. This folder is the text of the variant 668f9abb, mainline's commit (David
 *            Rientjes, authored 2014-03-03 15:38:18 -0800, committed by Linus Torvalds
 *            2014-03-04 07:55:47 -0800, after v3.14-rc5: in -rc6, inferred), whose META parent
 *            is a0320865 (5eaf1a9e until 6 Dec 2026, which left 3.14's SLUB fix out;
 *            no modelled function changes between them but for 309381fe's
 *            VM_BUG_ON_PAGE, which the fidelity tool reads as VM_BUG_ON); 'parent: 44518d2b'
 *            above is superseded. Mainline's own parent, per the commit page, is 'MAINTAINERS:
 *            EDAC: add Mauro and Borislav as interim patch collectors' (its id UNVERIFIED). The
 *            3.10-stable backport is the variant linux-3.10.36 (kernel/linux-3.10.36/, parent
 *            27c73ae7); until this update it was the variant named 668f9abb. Checked on 6 Dec
 *            2026 against a v3.14 tree: mm/swap.c of tzanussi/linux-yocto-micro-3.14 (a Yocto
 *            derivative whose Makefile reads 3.14.0; its additions lie outside these functions)
 *            at ef0c3f4d40598c21fd71897193ebb4e6666f8e5f has the same statements in both
 *            functions, compound_head() in the two page_head lines and VM_BUG_ON_PAGE
 *            throughout (comments not compared byte for byte).
 */

static void put_compound_page(struct page *page)
{
	struct page *page_head;

	if (likely(!PageTail(page))) {
		if (put_page_testzero(page)) {
			/*
			 * By the time all refcounts have been released
			 * split_huge_page cannot run anymore from under us.
			 */
			if (PageHead(page))
				__put_compound_page(page);
			else
				__put_single_page(page);
		}
		return;
	}

	/* __split_huge_page_refcount can run under us */
	page_head = compound_head(page);

	/*
	 * THP can not break up slab pages so avoid taking
	 * compound_lock() and skip the tail page refcounting (in
	 * _mapcount) too. Slab performs non-atomic bit ops on
	 * page->flags for better performance. In particular
	 * slab_unlock() in slub used to be a hot path. It is still
	 * hot on arches that do not support
	 * this_cpu_cmpxchg_double().
	 *
	 * If "page" is part of a slab or hugetlbfs page it cannot be
	 * splitted and the head page cannot change from under us. And
	 * if "page" is part of a THP page under splitting, if the
	 * head page pointed by the THP tail isn't a THP head anymore,
	 * we'll find PageTail clear after smp_rmb() and we'll treat
	 * it as a single page.
	 */
	if (!__compound_tail_refcounted(page_head)) {
		/*
		 * If "page" is a THP tail, we must read the tail page
		 * flags after the head page flags. The
		 * split_huge_page side enforces write memory barriers
		 * between clearing PageTail and before the head page
		 * can be freed and reallocated.
		 */
		smp_rmb();
		if (likely(PageTail(page))) {
			/*
			 * __split_huge_page_refcount cannot race
			 * here.
			 */
			VM_BUG_ON_PAGE(!PageHead(page_head), page_head);
			VM_BUG_ON_PAGE(page_mapcount(page) != 0, page);
			if (put_page_testzero(page_head)) {
				/*
				 * If this is the tail of a slab
				 * compound page, the tail pin must
				 * not be the last reference held on
				 * the page, because the PG_slab
				 * cannot be cleared before all tail
				 * pins (which skips the _mapcount
				 * tail refcounting) have been
				 * released. For hugetlbfs the tail
				 * pin may be the last reference on
				 * the page instead, because
				 * PageHeadHuge will not go away until
				 * the compound page enters the buddy
				 * allocator.
				 */
				VM_BUG_ON_PAGE(PageSlab(page_head), page_head);
				__put_compound_page(page_head);
			}
			return;
		} else
			/*
			 * __split_huge_page_refcount run before us,
			 * "page" was a THP tail. The split page_head
			 * has been freed and reallocated as slab or
			 * hugetlbfs page of smaller order (only
			 * possible if reallocated as slab on x86).
			 */
			goto out_put_single;
	}

	if (likely(page != page_head && get_page_unless_zero(page_head))) {
		unsigned long flags;

		/*
		 * page_head wasn't a dangling pointer but it may not
		 * be a head page anymore by the time we obtain the
		 * lock. That is ok as long as it can't be freed from
		 * under us.
		 */
		flags = compound_lock_irqsave(page_head);
		if (unlikely(!PageTail(page))) {
			/* __split_huge_page_refcount run before us */
			compound_unlock_irqrestore(page_head, flags);
			if (put_page_testzero(page_head)) {
				/*
				 * The head page may have been freed
				 * and reallocated as a compound page
				 * of smaller order and then freed
				 * again.  All we know is that it
				 * cannot have become: a THP page, a
				 * compound page of higher order, a
				 * tail page.  That is because we
				 * still hold the refcount of the
				 * split THP tail and page_head was
				 * the THP head before the split.
				 */
				if (PageHead(page_head))
					__put_compound_page(page_head);
				else
					__put_single_page(page_head);
			}
out_put_single:
			if (put_page_testzero(page))
				__put_single_page(page);
			return;
		}
		VM_BUG_ON_PAGE(page_head != page->first_page, page);
		/*
		 * We can release the refcount taken by
		 * get_page_unless_zero() now that
		 * __split_huge_page_refcount() is blocked on the
		 * compound_lock.
		 */
		if (put_page_testzero(page_head))
			VM_BUG_ON_PAGE(1, page_head);
		/* __split_huge_page_refcount will wait now */
		VM_BUG_ON_PAGE(page_mapcount(page) <= 0, page);
		atomic_dec(&page->_mapcount);
		VM_BUG_ON_PAGE(atomic_read(&page_head->_count) <= 0, page_head);
		VM_BUG_ON_PAGE(atomic_read(&page->_count) != 0, page);
		compound_unlock_irqrestore(page_head, flags);

		if (put_page_testzero(page_head)) {
			if (PageHead(page_head))
				__put_compound_page(page_head);
			else
				__put_single_page(page_head);
		}
	} else {
		/* page_head is a dangling pointer */
		VM_BUG_ON_PAGE(PageTail(page), page);
		goto out_put_single;
	}
}

/*
 * This function is exported but must not be called by anything other
 * than get_page(). It implements the slow path of get_page().
 */
bool __get_page_tail(struct page *page)
{
	/*
	 * This takes care of get_page() if run on a tail page
	 * returned by one of the get_user_pages/follow_page variants.
	 * get_user_pages/follow_page itself doesn't need the compound
	 * lock because it runs __get_page_tail_foll() under the
	 * proper PT lock that already serializes against
	 * split_huge_page().
	 */
	unsigned long flags;
	bool got;
	struct page *page_head = compound_head(page);

	/* Ref to put_compound_page() comment. */
	if (!__compound_tail_refcounted(page_head)) {
		smp_rmb();
		if (likely(PageTail(page))) {
			/*
			 * This is a hugetlbfs page or a slab
			 * page. __split_huge_page_refcount
			 * cannot race here.
			 */
			VM_BUG_ON_PAGE(!PageHead(page_head), page_head);
			__get_page_tail_foll(page, true);
			return true;
		} else {
			/*
			 * __split_huge_page_refcount run
			 * before us, "page" was a THP
			 * tail. The split page_head has been
			 * freed and reallocated as slab or
			 * hugetlbfs page of smaller order
			 * (only possible if reallocated as
			 * slab on x86).
			 */
			return false;
		}
	}

	got = false;
	if (likely(page != page_head && get_page_unless_zero(page_head))) {
		/*
		 * page_head wasn't a dangling pointer but it
		 * may not be a head page anymore by the time
		 * we obtain the lock. That is ok as long as it
		 * can't be freed from under us.
		 */
		flags = compound_lock_irqsave(page_head);
		/* here __split_huge_page_refcount won't run anymore */
		if (likely(PageTail(page))) {
			__get_page_tail_foll(page, false);
			got = true;
		}
		compound_unlock_irqrestore(page_head, flags);
		if (unlikely(!got))
			put_page(page_head);
	}
	return got;
}
