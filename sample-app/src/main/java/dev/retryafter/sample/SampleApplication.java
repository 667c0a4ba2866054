package dev.retryafter.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Boot web application that shows the retry-after starter at work.
 */
@SpringBootApplication
public class SampleApplication {

	/**
	 * Starts the sample application.
	 * @param args command-line arguments
	 */
	public static void main(String[] args) {
		SpringApplication.run(SampleApplication.class, args);
	}

}
