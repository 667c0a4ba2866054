package dev.retryafter.frameworkretry;

import org.aopalliance.aop.Advice;

import org.springframework.aop.Pointcut;
import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.aop.support.ComposablePointcut;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.resilience.annotation.Retryable;

/**
 * Adds {@link RetriedMethodInterceptor} to every bean with {@code @Retryable} methods, as the
 * innermost advice: Spring Framework's retry advice goes before every advisor already there,
 * and this one after all of them, whichever of the two post-processors runs first. It
 * matches exactly the methods Spring's {@code RetryAnnotationBeanPostProcessor} matches (the
 * annotation on the method or its class, inherited ones included).
 *
 * @since 0.1.0
 */
@SuppressWarnings("serial")
public class RetriedMethodsPostProcessor extends AbstractBeanFactoryAwareAdvisingPostProcessor {

	/**
	 * Creates the post-processor.
	 * @param advice the advice to add, a {@link RetriedMethodInterceptor}
	 */
	public RetriedMethodsPostProcessor(Advice advice) {
		setBeforeExistingAdvisors(false);
		Pointcut onClass = new AnnotationMatchingPointcut(Retryable.class, true);
		Pointcut onMethod = new AnnotationMatchingPointcut(null, Retryable.class, true);
		this.advisor = new DefaultPointcutAdvisor(new ComposablePointcut(onClass).union(onMethod), advice);
	}

}
