/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DMA ownership tracker: run-time checking of the streaming DMA API's
 * ownership protocol. See Documentation/dev-tools/dma-owner.rst.
 *
 * After dma_map_*() the device owns a buffer; dma_sync_*_for_cpu() hands it
 * to the CPU, dma_sync_*_for_device() hands it back and dma_unmap_*() ends
 * it. The hooks below see every such transition. Each is a static branch, so
 * a tracker that is built in but switched off costs a predicted jump.
 */
#ifndef _LINUX_DMA_OWNER_H
#define _LINUX_DMA_OWNER_H

#include <linux/dma-direction.h>
#include <linux/jump_label.h>
#include <linux/types.h>

struct device;
struct scatterlist;

/*
 * Which family of the API made a mapping; unmapping must use the same. The
 * non-coherent allocators' memory is synced like a streaming mapping, so it
 * is tracked as one, from allocation (owned by the CPU) to free. Coherent
 * memory has no owner: it is tracked only to check how it is freed.
 */
enum dma_owner_api {
	DMA_OWNER_API_PAGE,	/* dma_map_page(), dma_map_single() */
	DMA_OWNER_API_SG,	/* dma_map_sg(), dma_map_sgtable() */
	DMA_OWNER_API_RESOURCE,	/* dma_map_resource() */
	DMA_OWNER_API_PAGES,	/* dma_alloc_pages(), dma_alloc_noncoherent() */
	DMA_OWNER_API_NONCONTIGUOUS, /* dma_alloc_noncontiguous() */
	DMA_OWNER_API_COHERENT,	/* dma_alloc_attrs(), dma_alloc_coherent() */
};

/* The operations that move ownership. */
enum dma_owner_op {
	DMA_OWNER_OP_MAP,
	DMA_OWNER_OP_UNMAP,
	DMA_OWNER_OP_SYNC_FOR_CPU,
	DMA_OWNER_OP_SYNC_FOR_DEVICE,
	DMA_OWNER_NR_OPS
};

#ifdef CONFIG_DMA_OWNER_DEBUG

DECLARE_STATIC_KEY_FALSE(dma_owner_key);

/* True while the tracker is on: callers then treat every device as needing sync. */
static __always_inline bool dma_owner_tracking(void)
{
	return static_branch_unlikely(&dma_owner_key);
}

void __dma_owner_map(struct device *dev, dma_addr_t addr, size_t size,
		     enum dma_data_direction dir, unsigned long attrs,
		     enum dma_owner_api api, phys_addr_t phys,
		     unsigned long caller);
void __dma_owner_unmap(struct device *dev, dma_addr_t addr, size_t size,
		       enum dma_data_direction dir, enum dma_owner_api api,
		       unsigned long caller);
void __dma_owner_map_sg(struct device *dev, struct scatterlist *sg, int nents,
			int ents, enum dma_data_direction dir,
			unsigned long attrs, unsigned long caller);
void __dma_owner_unmap_sg(struct device *dev, struct scatterlist *sg,
			  int nents, enum dma_data_direction dir,
			  unsigned long caller);
void __dma_owner_sync(struct device *dev, dma_addr_t addr, size_t size,
		      enum dma_data_direction dir, enum dma_owner_op op,
		      unsigned long caller);
void __dma_owner_sync_sg(struct device *dev, struct scatterlist *sg,
			 int nelems, enum dma_data_direction dir,
			 enum dma_owner_op op, unsigned long caller);
void __dma_owner_alloc_coherent(struct device *dev, size_t size,
				dma_addr_t addr, const void *cpu_addr,
				unsigned long caller);
void __dma_owner_free_coherent(struct device *dev, size_t size,
			       const void *cpu_addr, dma_addr_t addr,
			       unsigned long caller);
void __dma_owner_mapping_error(struct device *dev, dma_addr_t addr);
void __dma_owner_map_single(struct device *dev, const void *ptr, size_t size,
			    enum dma_data_direction dir);
void dma_owner_driver_bound(struct device *dev);
void dma_owner_driver_unbound(struct device *dev);
void dma_owner_device_gone(struct device *dev);
void dma_owner_device_release(struct device *dev);

static inline void dma_owner_map(struct device *dev, dma_addr_t addr,
				 size_t size, enum dma_data_direction dir,
				 unsigned long attrs, enum dma_owner_api api,
				 phys_addr_t phys, unsigned long caller)
{
	if (dma_owner_tracking())
		__dma_owner_map(dev, addr, size, dir, attrs, api, phys, caller);
}

static inline void dma_owner_unmap(struct device *dev, dma_addr_t addr,
				   size_t size, enum dma_data_direction dir,
				   enum dma_owner_api api, unsigned long caller)
{
	if (dma_owner_tracking())
		__dma_owner_unmap(dev, addr, size, dir, api, caller);
}

static inline void dma_owner_map_sg(struct device *dev, struct scatterlist *sg,
				    int nents, int ents,
				    enum dma_data_direction dir,
				    unsigned long attrs, unsigned long caller)
{
	if (dma_owner_tracking())
		__dma_owner_map_sg(dev, sg, nents, ents, dir, attrs, caller);
}

static inline void dma_owner_unmap_sg(struct device *dev,
				      struct scatterlist *sg, int nents,
				      enum dma_data_direction dir,
				      unsigned long caller)
{
	if (dma_owner_tracking())
		__dma_owner_unmap_sg(dev, sg, nents, dir, caller);
}

static inline void dma_owner_sync(struct device *dev, dma_addr_t addr,
				  size_t size, enum dma_data_direction dir,
				  enum dma_owner_op op, unsigned long caller)
{
	if (dma_owner_tracking())
		__dma_owner_sync(dev, addr, size, dir, op, caller);
}

static inline void dma_owner_sync_sg(struct device *dev,
				     struct scatterlist *sg, int nelems,
				     enum dma_data_direction dir,
				     enum dma_owner_op op, unsigned long caller)
{
	if (dma_owner_tracking())
		__dma_owner_sync_sg(dev, sg, nelems, dir, op, caller);
}

static inline void dma_owner_alloc_coherent(struct device *dev, size_t size,
					    dma_addr_t addr,
					    const void *cpu_addr,
					    unsigned long caller)
{
	if (dma_owner_tracking())
		__dma_owner_alloc_coherent(dev, size, addr, cpu_addr, caller);
}

static inline void dma_owner_free_coherent(struct device *dev, size_t size,
					   const void *cpu_addr,
					   dma_addr_t addr,
					   unsigned long caller)
{
	if (dma_owner_tracking())
		__dma_owner_free_coherent(dev, size, cpu_addr, addr, caller);
}

/* From dma_mapping_error(), inlined in the driver: the handle was checked. */
static inline void dma_owner_mapping_error(struct device *dev, dma_addr_t addr)
{
	if (dma_owner_tracking())
		__dma_owner_mapping_error(dev, addr);
}

/* From dma_map_single_attrs(), before the memory is mapped: is it mappable? */
static __always_inline void dma_owner_map_single(struct device *dev,
						 const void *ptr, size_t size,
						 enum dma_data_direction dir)
{
	if (dma_owner_tracking())
		__dma_owner_map_single(dev, ptr, size, dir);
}

#else /* !CONFIG_DMA_OWNER_DEBUG */

static inline bool dma_owner_tracking(void) { return false; }
static inline void dma_owner_map(struct device *dev, dma_addr_t addr,
				 size_t size, enum dma_data_direction dir,
				 unsigned long attrs, enum dma_owner_api api,
				 phys_addr_t phys, unsigned long caller) { }
static inline void dma_owner_unmap(struct device *dev, dma_addr_t addr,
				   size_t size, enum dma_data_direction dir,
				   enum dma_owner_api api,
				   unsigned long caller) { }
static inline void dma_owner_map_sg(struct device *dev, struct scatterlist *sg,
				    int nents, int ents,
				    enum dma_data_direction dir,
				    unsigned long attrs, unsigned long caller) { }
static inline void dma_owner_unmap_sg(struct device *dev,
				      struct scatterlist *sg, int nents,
				      enum dma_data_direction dir,
				      unsigned long caller) { }
static inline void dma_owner_sync(struct device *dev, dma_addr_t addr,
				  size_t size, enum dma_data_direction dir,
				  enum dma_owner_op op, unsigned long caller) { }
static inline void dma_owner_sync_sg(struct device *dev,
				     struct scatterlist *sg, int nelems,
				     enum dma_data_direction dir,
				     enum dma_owner_op op, unsigned long caller) { }
static inline void dma_owner_alloc_coherent(struct device *dev, size_t size,
					    dma_addr_t addr,
					    const void *cpu_addr,
					    unsigned long caller) { }
static inline void dma_owner_free_coherent(struct device *dev, size_t size,
					   const void *cpu_addr,
					   dma_addr_t addr,
					   unsigned long caller) { }
static inline void dma_owner_mapping_error(struct device *dev,
					   dma_addr_t addr) { }
static inline void dma_owner_map_single(struct device *dev, const void *ptr,
					size_t size,
					enum dma_data_direction dir) { }
static inline void dma_owner_driver_bound(struct device *dev) { }
static inline void dma_owner_driver_unbound(struct device *dev) { }
static inline void dma_owner_device_gone(struct device *dev) { }
static inline void dma_owner_device_release(struct device *dev) { }

#endif /* CONFIG_DMA_OWNER_DEBUG */
#endif /* _LINUX_DMA_OWNER_H */
